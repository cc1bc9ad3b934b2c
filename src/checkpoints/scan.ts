// What changed since a session's index was last written: one `git ls-files` run (git walks the
// folder honouring every .gitignore and compares stat data with the index, so unchanged files
// cost a stat each), then an lstat of each new or changed file for the size cap.
import { lstat } from "node:fs/promises";
import { join } from "node:path";
import type { GitContext } from "./git-runner.js";
import { runGit, splitNul } from "./git-runner.js";
import type { SkippedFiles } from "./types.js";

export interface ScanResult {
  /** Paths for `update-index --add --remove --replace` (new or changed files, and vanished ones). */
  update: string[];
  /** Paths for `update-index --force-remove` (now oversized, or no longer a file). */
  forceRemove: string[];
  /** Files the folder holds as git sees them (index entries plus new files): what `maxFiles` caps. */
  total: number;
  skipped: SkippedFiles;
}

export interface ScanOptions {
  indexFile: string;
  pathspecs: string[];
  maxFileBytes: number;
  maxFiles: number;
  signal?: AbortSignal;
}

/** Listed names per skipped kind. */
export const SKIPPED_LIST_CAP = 100;

/** `undefined` when the folder holds more than `maxFiles` files (the listing is cut short). */
export async function scanChanges(git: GitContext, opts: ScanOptions): Promise<ScanResult | undefined> {
  // ~100 bytes per listed path is generous; past that many bytes the count is over the cap anyway.
  const maxStdout = Math.max(1024 * 1024, (opts.maxFiles + 1) * 2 * 512);
  const run = await runGit(git, ["ls-files", "-z", "-t", "-c", "-o", "-m", "-d", "--exclude-standard", "--", ...opts.pathspecs], {
    indexFile: opts.indexFile,
    maxStdout,
    signal: opts.signal,
  });
  const others: string[] = [];
  const changed = new Set<string>();
  const nestedRepos: string[] = [];
  // Names that are not UTF-8 cannot be passed back to git intact: reported, not covered.
  const undecodable: string[] = [];
  let cached = 0;
  for (const line of splitNul(run.stdout)) {
    const tag = line[0];
    const path = line.slice(2);
    if (tag === "H" || tag === "S") cached++;
    else if (tag === "?") {
      if (path.endsWith("/")) nestedRepos.push(path.slice(0, -1));
      else if (path.includes("\uFFFD")) undecodable.push(path);
      else others.push(path);
    } else if (tag === "C" || tag === "R") changed.add(path);
  }
  const total = cached + others.length;
  if (total > opts.maxFiles || run.truncated) return undefined;
  const result: ScanResult = { update: [], forceRemove: [], total, skipped: { oversized: [], nestedRepos: cap(nestedRepos), unreadable: cap(undecodable) } };
  await classify(git.workTree, others, opts.maxFileBytes, result, false);
  await classify(git.workTree, [...changed], opts.maxFileBytes, result, true);
  return result;
}

type Kind = "file" | "oversized" | "missing" | "other";

async function kindOf(abs: string, maxBytes: number): Promise<Kind> {
  try {
    const st = await lstat(abs);
    if (st.isSymbolicLink()) return "file";
    if (!st.isFile()) return "other";
    return st.size > maxBytes ? "oversized" : "file";
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return "missing";
    return "other";
  }
}

/** lstat in parallel batches (the thread pool does the waiting; the event loop stays free). */
async function classify(root: string, paths: string[], maxBytes: number, into: ScanResult, inIndex: boolean): Promise<void> {
  const BATCH = 256;
  for (let i = 0; i < paths.length; i += BATCH) {
    const slice = paths.slice(i, i + BATCH);
    const kinds = await Promise.all(slice.map((p) => kindOf(join(root, p), maxBytes)));
    slice.forEach((path, k) => {
      const kind = kinds[k];
      if (kind === "file" || (kind === "missing" && inIndex)) into.update.push(path);
      else if (kind === "oversized") {
        if (into.skipped.oversized.length < SKIPPED_LIST_CAP) into.skipped.oversized.push(path);
        if (inIndex) into.forceRemove.push(path);
      } else if (kind === "other" && inIndex) into.forceRemove.push(path);
    });
  }
}

function cap(list: string[]): string[] {
  return list.slice(0, SKIPPED_LIST_CAP);
}
