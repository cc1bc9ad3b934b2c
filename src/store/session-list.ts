// `list_sessions`: the session files of one or more folders, newest first, with paging and a
// text query. Each file is summarised by `scanSessionFile` (no full parse) and the summary is
// cached by size and mtime, so a second listing stats the files and reads none (a watched folder:
// only the files reported changed), and an unchanged set of files keeps its sorted order.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../shared/errors.js";
import { clearSessionFolders, folderCandidates, settleFolderEvents, type Candidate } from "./session-folders.js";
import { scanSessionFile, type SessionSummary } from "./session-scan.js";

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

/** The last listing's order, reused while no file of it was added, removed or touched. */
let lastOrder: { key: string; order: Candidate[]; source: Candidate[]; members?: Set<Candidate> } | undefined;

/** Whether `all` holds the files of the last order (a file renamed back keeps its old mtime). */
function sameFiles(all: Candidate[], last: NonNullable<typeof lastOrder>): boolean {
  if (all === last.source) return true; // a watched folder's unchanged list
  if (all.length !== last.order.length) return false;
  last.members ??= new Set(last.order);
  const members = last.members;
  return all.every((c) => members.has(c));
}

/** Every session file of `dirs`, newest first. */
function candidates(dirs: readonly string[], watch: boolean): Candidate[] {
  const unique = [...new Set(dirs.map((d) => path.resolve(d)))];
  const key = unique.join("\0");
  let moved = lastOrder?.key !== key;
  let all: Candidate[] = [];
  for (const dir of unique) {
    const folder = folderCandidates(dir, watch);
    if (folder.moved) moved = true;
    if (unique.length === 1) all = folder.files;
    else for (const c of folder.files) all.push(c);
  }
  // same files, none touched: the previous order still holds (its entries are updated in place)
  if (!moved && lastOrder && sameFiles(all, lastOrder)) return lastOrder.order;
  const order = [...all].sort(newerFirst);
  lastOrder = { key, order, source: all };
  return order;
}

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

/** A page's `nextCursor`: the time and name of the last row listed (opaque to hosts). */
export function encodeCursor(c: { mtimeMs: number; file: string }): string {
  return Buffer.from(JSON.stringify([c.mtimeMs, c.file])).toString("base64url");
}

export function decodeCursor(cursor: string): { mtimeMs: number; file: string } {
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
  c.state = scanSessionFile(c.file, c, c.state);
  return c.state.summary;
}

function matches(s: SessionSummary, needle: string): boolean {
  return (s.name?.toLowerCase().includes(needle) ?? false) || (s.firstMessage?.toLowerCase().includes(needle) ?? false);
}

/** One page of session summaries, newest first. Files that are not sessions are left out. */
export function listSessions(o: ListSessionsOptions): ListSessionsResult {
  return listPage(o, false);
}

/**
 * listSessions for a long-lived process that lists the same folders again: the folders are
 * watched, and a later listing restats only the files reported changed.
 */
export async function listSessionsWatched(o: ListSessionsOptions): Promise<ListSessionsResult> {
  await settleFolderEvents();
  return listPage(o, true);
}

/** The page size asked for (default 100), or PithError for one out of 1–10,000. */
export function pageLimit(limit: number | undefined): number {
  const n = limit ?? DEFAULT_LIMIT;
  if (!Number.isInteger(n) || n < 1 || n > MAX_LIMIT) throw new PithError("invalid_request", `Invalid "limit": expected an integer from 1 to ${MAX_LIMIT}`);
  return n;
}

function listPage(o: ListSessionsOptions, watch: boolean): ListSessionsResult {
  const limit = pageLimit(o.limit);
  const after = o.cursor === undefined ? undefined : decodeCursor(o.cursor);
  const needle = o.query?.trim().toLowerCase() || undefined;
  const all = candidates(o.dirs, watch);
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
  clearSessionFolders();
  lastOrder = undefined;
}
