// `list_sessions`: the session files of one or more folders, newest first, with paging and a
// text query. Each file is summarised by `scanSessionFile` (no full parse) and the summary is
// cached by size and mtime, so a second listing only stats the files.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../../shared/errors.js";
import { listSessionFiles, type SessionFileStat } from "./layout.js";
import { scanSessionFile, type ScanState, type SessionSummary } from "./session-scan.js";

export type { SessionSummary } from "./session-scan.js";

export interface ListSessionsOptions {
  /** Folders whose `*.jsonl` files are listed. */
  dirs: readonly string[];
  /** Page size (default 100, at most 10,000). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
  /** Case-insensitive match on the name and the first message. */
  query?: string;
}

export interface ListSessionsResult {
  sessions: SessionSummary[];
  nextCursor?: string;
}

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 10_000;
/** Summaries kept per process (one per file seen). */
const MAX_CACHED = 100_000;

const cache = new Map<string, ScanState>();

type Candidate = SessionFileStat;

/** Every sub-folder of `root` (the per-project session folders), plus `root` itself. */
export function projectDirsOf(root: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return [];
    throw new PithError("io", `Cannot list sessions in ${root}: ${errorMessage(err)}`, { cause: err });
  }
  return [root, ...entries.filter((d) => d.isDirectory()).map((d) => path.join(root, d.name))];
}

function encodeCursor(c: { mtimeMs: number; file: string }): string {
  return Buffer.from(JSON.stringify([c.mtimeMs, c.file])).toString("base64url");
}

function decodeCursor(cursor: string): { mtimeMs: number; file: string } {
  try {
    const v = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown;
    if (Array.isArray(v) && typeof v[0] === "number" && typeof v[1] === "string") return { mtimeMs: v[0], file: v[1] };
  } catch (err) {
    void err; // reported below
  }
  throw new PithError("invalid_request", `Invalid "cursor": not a cursor returned by list_sessions`);
}

/** Newest first; equal times by path, so the order (and paging) is total. */
function newerFirst(a: { mtimeMs: number; file: string }, b: { mtimeMs: number; file: string }): number {
  return b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0);
}

function summarize(c: Candidate): SessionSummary | undefined {
  const state = scanSessionFile(c.file, c, cache.get(c.file));
  if (cache.size >= MAX_CACHED && !cache.has(c.file)) cache.delete(cache.keys().next().value as string);
  cache.set(c.file, state);
  return state.summary;
}

function matches(s: SessionSummary, needle: string): boolean {
  return (s.name?.toLowerCase().includes(needle) ?? false) || (s.firstMessage?.toLowerCase().includes(needle) ?? false);
}

/** One page of session summaries, newest first. Files that are not sessions are left out. */
export function listSessions(o: ListSessionsOptions): ListSessionsResult {
  const limit = o.limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new PithError("invalid_request", `Invalid "limit": expected an integer from 1 to ${MAX_LIMIT}`);
  }
  const after = o.cursor === undefined ? undefined : decodeCursor(o.cursor);
  const needle = o.query?.trim().toLowerCase() || undefined;
  const seen = new Set<string>();
  const all: Candidate[] = [];
  for (const dir of o.dirs) {
    for (const c of listSessionFiles(path.resolve(dir))) {
      if (seen.has(c.file)) continue;
      seen.add(c.file);
      all.push(c);
    }
  }
  all.sort(newerFirst);
  let i = after === undefined ? 0 : all.findIndex((c) => newerFirst(c, after) > 0);
  if (i === -1) i = all.length;
  const sessions: SessionSummary[] = [];
  let last: Candidate | undefined;
  for (; i < all.length && sessions.length < limit; i++) {
    const s = summarize(all[i]);
    last = all[i];
    if (s && (needle === undefined || matches(s, needle))) sessions.push(s);
  }
  const more = i < all.length && last !== undefined;
  return more ? { sessions, nextCursor: encodeCursor(last as Candidate) } : { sessions };
}

/** Forget cached summaries (tests, benchmarks). */
export function clearSessionListCache(): void {
  cache.clear();
}
