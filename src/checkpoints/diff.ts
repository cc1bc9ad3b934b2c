// What differs between two trees: the file list (status and line counts) and the unified diff a
// review pane shows, capped in bytes. Three `git diff-tree` runs side by side (raw, numstat, patch);
// no rename detection, so every path is reported as added, modified or deleted.
import type { GitContext } from "./git-runner.js";
import { runGit, splitNul } from "./git-runner.js";
import type { CheckpointDiff, DiffFile, FileStatus } from "./types.js";

export interface RawChange {
  /** Mode and object before ("000000" and zeros when added). */
  srcMode: string;
  dstMode: string;
  status: string;
  path: string;
}

const BASE = ["diff-tree", "-r", "-z", "--no-renames", "--no-ext-diff", "--no-textconv"];

/** `git diff-tree --raw` between two trees, limited to `pathspecs` (literal) when given. */
export async function rawChanges(git: GitContext, from: string, to: string, pathspecs: string[], signal?: AbortSignal): Promise<RawChange[]> {
  const env = pathspecs.length > 0 ? { GIT_LITERAL_PATHSPECS: "1" } : undefined;
  const run = await runGit(git, [...BASE, "--raw", from, to, "--", ...pathspecs], { env, signal });
  const parts = splitNul(run.stdout);
  const changes: RawChange[] = [];
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const m = /^:(\d{6}) (\d{6}) [0-9a-f]+ [0-9a-f]+ ([A-Z])\d*$/.exec(parts[i]);
    if (m) changes.push({ srcMode: m[1], dstMode: m[2], status: m[3], path: parts[i + 1] });
  }
  return changes;
}

function statusOf(change: RawChange): FileStatus {
  if (change.status === "A") return "added";
  if (change.status === "D") return "deleted";
  return "modified";
}

/** Lines added and removed per path; binary files show as "-". */
async function numstat(git: GitContext, from: string, to: string, signal?: AbortSignal): Promise<Map<string, { add: number; del: number; binary: boolean }>> {
  const run = await runGit(git, [...BASE, "--numstat", from, to], { signal });
  const counts = new Map<string, { add: number; del: number; binary: boolean }>();
  for (const rec of splitNul(run.stdout)) {
    const m = /^(\d+|-)\t(\d+|-)\t([\s\S]*)$/.exec(rec);
    if (!m) continue;
    // A type change (file ↔ symlink) is counted as a deletion plus an addition of one path.
    const binary = m[1] === "-";
    const prev = counts.get(m[3]) ?? { add: 0, del: 0, binary: false };
    counts.set(m[3], { add: prev.add + (binary ? 0 : Number(m[1])), del: prev.del + (binary ? 0 : Number(m[2])), binary: prev.binary || binary });
  }
  return counts;
}

/** The unified diff, cut on a line boundary at `maxBytes`. */
async function patch(git: GitContext, from: string, to: string, maxBytes: number, signal?: AbortSignal): Promise<{ patch: string; truncated: boolean }> {
  const args = ["diff-tree", "-r", "-p", "--no-renames", "--no-ext-diff", "--no-textconv", "--no-color", "--src-prefix=a/", "--dst-prefix=b/", from, to];
  const run = await runGit(git, args, { maxStdout: maxBytes, signal });
  if (!run.truncated) return { patch: run.stdout.toString("utf8"), truncated: false };
  const head = run.stdout.subarray(0, maxBytes);
  const cut = head.lastIndexOf(0x0a);
  return { patch: head.subarray(0, cut + 1).toString("utf8"), truncated: true };
}

export async function diffTrees(git: GitContext, from: string, to: string, maxPatchBytes: number, signal?: AbortSignal): Promise<CheckpointDiff> {
  const [changes, counts, text] = await Promise.all([
    rawChanges(git, from, to, [], signal),
    numstat(git, from, to, signal),
    patch(git, from, to, maxPatchBytes, signal),
  ]);
  const files: DiffFile[] = changes.map((c) => {
    const n = counts.get(c.path) ?? { add: 0, del: 0, binary: false };
    const file: DiffFile = { path: c.path, status: statusOf(c), additions: n.add, deletions: n.del };
    if (n.binary) file.binary = true;
    return file;
  });
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, patch: text.patch, truncated: text.truncated };
}
