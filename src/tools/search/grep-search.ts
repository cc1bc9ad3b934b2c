// Finding matching lines, by ripgrep or by the built-in walker. Both return the same list:
// files in `rg --sort path` order, lines in file order, at most `maxMatches` entries.
import { basename, join } from "node:path";
import type { FsOps } from "../ops/fs-ops.js";
import { compileLinearGlob } from "../../shared/linear-glob.js";
import { compileLinearRegex, type LinearRegex } from "../../shared/linear-regex.js";
import { RG_WALK_FLAGS, runRipgrep } from "./ripgrep.js";
import { walkFiles } from "./walker.js";

export interface LineMatch {
  /** Relative to the search root; the file name when the root is a file. */
  path: string;
  /** 1-based. */
  line: number;
  text: string;
}

export interface GrepQuery {
  pattern: string;
  /** Absolute file or directory. */
  root: string;
  rootIsFile: boolean;
  glob?: string;
  ignoreCase?: boolean;
  literal?: boolean;
  maxMatches: number;
  signal?: AbortSignal;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The query's regex on the linear-time engine (RE2, the dialect ripgrep speaks too): a pattern
 * from the model cannot hold the process. Throws the reason for a pattern it cannot take.
 */
export function compileQuery(q: Pick<GrepQuery, "pattern" | "ignoreCase" | "literal">): LinearRegex {
  return compileLinearRegex(q.literal ? escapeRegExp(q.pattern) : q.pattern, { ignoreCase: q.ignoreCase });
}

export function globFilter(glob: string | undefined): (rel: string) => boolean {
  if (!glob) return () => true;
  return compileLinearGlob(glob, { basename: true });
}

function stripEol(s: string): string {
  return s.replace(/\r?\n$/, "").replace(/\r$/, "");
}

/** Built-in backend. Files are read a batch at a time (in parallel) and scanned in order. */
export async function grepWithWalker(q: GrepQuery, fs: FsOps): Promise<LineMatch[]> {
  const re = compileQuery(q);
  const accept = globFilter(q.glob);
  const out: LineMatch[] = [];
  const files = q.rootIsFile ? single(basename(q.root)) : walkFiles(q.root, { fs, signal: q.signal });
  let batch: string[] = [];
  const flush = async (): Promise<boolean> => {
    const bufs = await Promise.all(batch.map((rel) => fs.readFile(q.rootIsFile ? q.root : join(q.root, rel))));
    for (let i = 0; i < batch.length; i++) if (scanFile(batch[i], bufs[i], re, out, q.maxMatches)) return true;
    batch = [];
    if (q.signal?.aborted) throw new Error("Operation aborted");
    return false;
  };
  for await (const rel of files) {
    if (!q.rootIsFile && !accept(rel)) continue;
    batch.push(rel);
    if (batch.length >= READ_BATCH && (await flush())) return out;
  }
  await flush();
  return out;
}

const READ_BATCH = 64;

/** Appends the file's matching lines; true once `max` matches are collected. */
function scanFile(rel: string, buf: Buffer, re: LinearRegex, out: LineMatch[], max: number): boolean {
  if (buf.includes(0)) return false; // binary
  const lines = buf.toString("utf8").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  for (let i = 0; i < lines.length; i++) {
    const text = stripEol(lines[i]);
    if (!re.test(text)) continue;
    out.push({ path: rel, line: i + 1, text });
    if (out.length >= max) return true;
  }
  return false;
}

async function* single(name: string): AsyncGenerator<string> {
  yield name;
}

interface RgJson {
  type: string;
  data?: { path?: { text?: string; bytes?: string }; lines?: { text?: string; bytes?: string }; line_number?: number };
}

function rgText(v: { text?: string; bytes?: string } | undefined): string {
  if (!v) return "";
  return v.text ?? Buffer.from(v.bytes ?? "", "base64").toString("utf8");
}

/** ripgrep backend. */
export async function grepWithRipgrep(q: GrepQuery, rgPath: string, env?: Record<string, string>): Promise<LineMatch[]> {
  compileQuery(q); // same error text as the walker for patterns JS rejects
  const accept = globFilter(q.glob);
  const args = ["--json", "--sort", "path", "--no-messages", ...RG_WALK_FLAGS];
  if (q.ignoreCase) args.push("--ignore-case");
  if (q.literal) args.push("--fixed-strings");
  // No `--glob` for rg: there a matching glob overrides .gitignore; the filter below does it.
  args.push("--regexp", q.pattern, "--");
  args.push(q.rootIsFile ? q.root : ".");
  const out: LineMatch[] = [];
  await runRipgrep({
    rgPath,
    args,
    cwd: q.rootIsFile ? "/" : q.root,
    signal: q.signal,
    env,
    onLine(line) {
      const ev = JSON.parse(line) as RgJson;
      if (ev.type !== "match" || !ev.data) return true;
      const raw = rgText(ev.data.path);
      const rel = q.rootIsFile ? basename(q.root) : raw.replace(/^\.\//, "");
      if (!q.rootIsFile && !accept(rel)) return true;
      out.push({ path: rel, line: ev.data.line_number ?? 0, text: stripEol(rgText(ev.data.lines)) });
      return out.length < q.maxMatches;
    },
  });
  return out;
}
