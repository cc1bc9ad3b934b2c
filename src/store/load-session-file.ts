// Loading a session file: a versioned file is indexed in one streaming pass (only the index and,
// later, the current context are held); a version-less (pi v1) file, which may need ids assigned
// and the file rewritten, is parsed whole as before.
import fs from "node:fs";
import { PithError, errorMessage } from "../shared/errors.js";
import type { SessionHeader } from "./entry-types.js";
import { EntryTree } from "./entry-tree.js";
import { IndexedTree } from "./indexed-tree.js";
import { fileRowSource } from "./row-source.js";
import { parseSessionBuffer } from "./jsonl-parse.js";
import { readFully } from "./line-scan.js";
import { isHeaderRecord, migrate } from "./migrate.js";
import { indexSessionFile, withReadFd } from "./session-index.js";

export interface LoadedSessionFile {
  header: SessionHeader;
  tree: EntryTree | IndexedTree;
  needsRewrite: boolean;
  /** Length of the file prefix that can be appended to (a torn last line cut off). */
  validLength: number;
  needsNewline: boolean;
}

/** Longest header line the index path reads; a longer one takes the full parse. */
const HEADER_MAX = 64 * 1024;

/**
 * Missing file → PithError "not_found"; a first line that is not a session header →
 * "invalid_request". `index: false` forces the full parse (tests compare the two).
 */
export function loadSessionFile(abs: string, opts: { index?: boolean } = {}): LoadedSessionFile {
  const size = statSessionFile(abs);
  const indexed = opts.index === false ? undefined : ioErrors(abs, () => withReadFd(abs, (fd) => tryIndex(fd, size, abs)));
  if (indexed) return indexed;
  const parsed = parseSessionBuffer(ioErrors(abs, () => fs.readFileSync(abs)), abs);
  if (!isHeaderRecord(parsed.first)) throw notSession(abs);
  const m = migrate(parsed.first, parsed.records, abs);
  const tree = new EntryTree(m.entries, m.header.name, [...parsed.warnings, ...m.warnings], parsed.skipped + m.skipped);
  return { header: m.header, tree, needsRewrite: m.needsRewrite, validLength: parsed.appendOffset, needsNewline: parsed.needsNewline };
}

function tryIndex(fd: number, size: number, abs: string): LoadedSessionFile | undefined {
  const head = Buffer.allocUnsafe(Math.min(HEADER_MAX, size));
  const got = readFully(fd, head, head.length, 0);
  const nl = head.subarray(0, got).indexOf(0x0a);
  if (nl === -1) return undefined;
  let first: unknown;
  try {
    first = JSON.parse(head.toString("utf8", 0, nl));
  } catch (err) {
    void err; // not a header: the full parse gives the error
    return undefined;
  }
  if (first === null || typeof first !== "object" || Array.isArray(first)) return undefined;
  const rec = first as Record<string, unknown>;
  if (!isHeaderRecord(rec)) throw notSession(abs);
  if (typeof rec.version !== "number") return undefined;
  const m = migrate(rec, [], abs);
  const index = indexSessionFile(fd, size, abs, m.warnings);
  const tree = new IndexedTree(fileRowSource(abs), abs, index, m.header.name);
  return { header: m.header, tree, needsRewrite: false, validLength: index.appendOffset, needsNewline: index.needsNewline };
}

function notSession(abs: string): PithError {
  return new PithError("invalid_request", `Not a session file (first line is not a session header): ${abs}`);
}

/** The size of a regular file; other kinds (a FIFO would block a synchronous read) are refused. */
function statSessionFile(abs: string): number {
  return ioErrors(abs, () => {
    const st = fs.statSync(abs);
    if (st.isDirectory()) throw Object.assign(new Error("is a directory"), { code: "EISDIR" });
    if (!st.isFile()) throw new PithError("invalid_request", `Not a session file (not a regular file): ${abs}`);
    return st.size;
  });
}

function ioErrors<T>(abs: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof PithError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new PithError("not_found", `Session file not found: ${abs}`, { cause: err });
    if (code === "EISDIR") throw new PithError("invalid_request", `Not a session file (a directory): ${abs}`, { cause: err });
    throw new PithError("io", `Cannot read session file ${abs}: ${errorMessage(err)}`, { cause: err });
  }
}
