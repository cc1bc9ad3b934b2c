// Putting files back: the change list between the tree of "now" (the undo checkpoint) and the
// target tree decides every action, so a restore only ever touches paths a checkpoint covers.
//   - in now, not in the target: the file is deleted, then folders it leaves empty are removed;
//   - in the target, changed or absent now: git writes it (`checkout-index` from a scratch index:
//     exact bytes, the executable bit, symlinks as symlinks).
// A target file whose path is taken by something the checkpoints do not cover (an ignored or
// oversized file, a folder, a nested repository) or that would be reached through a symbolic
// link is left alone and reported as skipped. Failures are reported per file, never thrown.
import { randomBytes } from "node:crypto";
import { lstat, rmdir, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { errorMessage } from "../shared/errors.js";
import { rawChanges } from "./diff.js";
import type { GitContext } from "./git-runner.js";
import { joinNul, runGit, splitNul } from "./git-runner.js";
import type { RestoreResult } from "./types.js";

export interface ApplyRestoreInput {
  /** The tree of the folder just before the restore. */
  nowTree: string;
  targetTree: string;
  /** Work-tree-relative literal pathspecs; empty = everything. */
  pathspecs: string[];
  /** Where the scratch index goes. */
  scratchDir: string;
  signal?: AbortSignal;
}

export type AppliedRestore = Pick<RestoreResult, "restored" | "deleted" | "skipped" | "failed">;

export async function applyRestore(git: GitContext, input: ApplyRestoreInput): Promise<AppliedRestore> {
  const changes = await rawChanges(git, input.nowTree, input.targetTree, input.pathspecs, input.signal);
  const result: AppliedRestore = { restored: [], deleted: [], skipped: [], failed: [] };
  const removals = changes.filter((c) => c.status === "D").map((c) => c.path);
  const writes = changes.filter((c) => c.status !== "D");
  await deleteFiles(git.workTree, removals, result);
  const toWrite: string[] = [];
  for (const change of writes) {
    const blocker = change.status === "A" ? await blockedBy(git.workTree, change.path) : undefined;
    if (blocker) result.skipped.push({ path: change.path, reason: blocker });
    else toWrite.push(change.path);
  }
  if (toWrite.length > 0) await writeFiles(git, input, toWrite, result);
  for (const list of [result.restored, result.deleted]) list.sort();
  return result;
}

async function deleteFiles(root: string, paths: string[], result: AppliedRestore): Promise<void> {
  for (const path of paths) {
    try {
      await unlink(join(root, path));
      result.deleted.push(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") result.deleted.push(path);
      else result.failed.push({ path, error: errorMessage(err) });
    }
  }
  await removeEmptyFolders(root, result.deleted);
}

/** Removes the folders above deleted files that are now empty, deepest first, never the root. */
async function removeEmptyFolders(root: string, deleted: string[]): Promise<void> {
  const folders = new Set<string>();
  for (const path of deleted) {
    for (let dir = dirname(path); dir !== "." && dir !== "/" && dir !== ""; dir = dirname(dir)) folders.add(dir);
  }
  const deepestFirst = [...folders].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? 1 : -1));
  for (const dir of deepestFirst) {
    try {
      await rmdir(join(root, dir));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Not empty (it holds files the restore keeps), already gone, or not a folder: leave it.
      if (!["ENOTEMPTY", "EEXIST", "ENOENT", "ENOTDIR"].includes(code ?? "")) throw err;
    }
  }
}

/** Why a file the target adds must not be written, or undefined when its path is free. */
async function blockedBy(root: string, path: string): Promise<string | undefined> {
  const parts = path.split("/");
  for (let i = 1; i < parts.length; i++) {
    const parent = parts.slice(0, i).join("/");
    const st = await lstatOrUndefined(join(root, parent));
    if (!st) return undefined;
    if (st.isSymbolicLink()) return `its folder ${parent} is now a symbolic link`;
    if (!st.isDirectory()) return `its folder ${parent} is now a file that checkpoints do not cover`;
  }
  const st = await lstatOrUndefined(join(root, path));
  if (!st) return undefined;
  return st.isDirectory() ? "a folder now has its name" : "a file that checkpoints do not cover (ignored, oversized or in a nested repository) now has its name";
}

async function lstatOrUndefined(abs: string) {
  try {
    return await lstat(abs);
  } catch (err) {
    if (["ENOENT", "ENOTDIR"].includes((err as NodeJS.ErrnoException).code ?? "")) return undefined;
    throw err;
  }
}

/** `checkout-index` from a scratch index holding the target tree; on failure, finds which files did not land. */
async function writeFiles(git: GitContext, input: ApplyRestoreInput, paths: string[], result: AppliedRestore): Promise<void> {
  const indexFile = join(input.scratchDir, `restore-${randomBytes(6).toString("hex")}.tmp`);
  try {
    await runGit(git, ["read-tree", input.targetTree], { indexFile, signal: input.signal });
    const run = await runGit(git, ["checkout-index", "-f", "-u", "-z", "--stdin"], { indexFile, input: joinNul(paths), okCodes: [0, 1, 128], signal: input.signal });
    const failed = run.code === 0 ? new Set<string>() : await notWritten(git, indexFile, paths, input.signal);
    for (const path of paths) {
      if (!failed.has(path)) result.restored.push(path);
      else result.failed.push({ path, error: stderrAbout(run.stderr, path) });
    }
  } finally {
    await unlink(indexFile).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  }
}

/** Paths whose index entry checkout-index did not refresh (`-u`), i.e. that it did not write. */
async function notWritten(git: GitContext, indexFile: string, paths: string[], signal?: AbortSignal): Promise<Set<string>> {
  const failed = new Set<string>();
  const BATCH = 500;
  for (let i = 0; i < paths.length; i += BATCH) {
    const run = await runGit(git, ["diff-files", "-z", "--name-only", "--", ...paths.slice(i, i + BATCH)], { indexFile, env: { GIT_LITERAL_PATHSPECS: "1" }, signal });
    for (const path of splitNul(run.stdout)) failed.add(path);
  }
  return failed;
}

function stderrAbout(stderr: string, path: string): string {
  return stderr.split("\n").find((line) => line.includes(path)) ?? (stderr || "git could not write the file");
}
