// Putting files back: the change list between the tree of "now" (the undo checkpoint) and the
// target tree decides every action, so a restore only ever touches paths a checkpoint covers.
//   - in now, not in the target: the file is deleted, then folders it leaves empty are removed;
//   - in the target, changed or absent now: git writes it (`checkout-index` from a scratch index:
//     exact bytes, the executable bit, symlinks as symlinks).
// A target file whose path is taken by something the checkpoints do not cover (an ignored or
// oversized file, a folder, a nested repository) or that would be reached through a symbolic
// link is left alone and reported as skipped. Failures are reported per file, never thrown.
// Every write and delete in the folder goes through the confined file operations
// (shared/confined-fs.ts) with the folder as the only root: git materialises the target files in
// a private staging folder, and pith moves them in through verified folder handles, so a folder
// swapped for a link during the restore cannot send a write or a delete outside the folder.
import { randomBytes } from "node:crypto";
import { lstat, mkdtemp, readFile, readlink, realpath, rm, unlink } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { confinedFs, type ConfinedFs } from "../shared/confined-fs.js";
import { errorMessage } from "../shared/errors.js";
import { rawChanges } from "./diff.js";
import type { GitContext } from "./git-runner.js";
import { joinNul, runGit } from "./git-runner.js";
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
  const fs = await confinedTo(git.workTree);
  const removals = changes.filter((c) => c.status === "D").map((c) => c.path);
  const writes = changes.filter((c) => c.status !== "D");
  await deleteFiles(fs, git.workTree, removals, result);
  const toWrite: string[] = [];
  for (const change of writes) {
    const blocker = change.status === "A" ? await blockedBy(git.workTree, change.path) : undefined;
    if (blocker) result.skipped.push({ path: change.path, reason: blocker });
    else toWrite.push(change.path);
  }
  if (toWrite.length > 0) await writeFiles(fs, git, input, toWrite, result);
  for (const list of [result.restored, result.deleted]) list.sort();
  return result;
}

/** File operations that cannot land outside the work tree. */
async function confinedTo(workTree: string): Promise<ConfinedFs> {
  const root = await realpath(workTree);
  return confinedFs((real, shown) => {
    const rel = relative(root, real);
    return rel === "" || (!rel.startsWith("..") && !rel.startsWith("/")) ? undefined : `${shown} leads to ${real}, outside the folder being restored`;
  });
}

async function deleteFiles(fs: ConfinedFs, root: string, paths: string[], result: AppliedRestore): Promise<void> {
  for (const path of paths) {
    try {
      await fs.unlink(join(root, path));
      result.deleted.push(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") result.deleted.push(path);
      else result.failed.push({ path, error: errorMessage(err) });
    }
  }
  await removeEmptyFolders(fs, root, result.deleted);
}

/** Removes the folders above deleted files that are now empty, deepest first, never the root. */
async function removeEmptyFolders(fs: ConfinedFs, root: string, deleted: string[]): Promise<void> {
  const folders = new Set<string>();
  for (const path of deleted) {
    for (let dir = dirname(path); dir !== "." && dir !== "/" && dir !== ""; dir = dirname(dir)) folders.add(dir);
  }
  const deepestFirst = [...folders].sort((a, b) => b.split("/").length - a.split("/").length || (a < b ? 1 : -1));
  for (const dir of deepestFirst) {
    try {
      await fs.rmdir(join(root, dir));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Not empty (it holds files the restore keeps), already gone, or not a folder: leave it.
      if (!["ENOTEMPTY", "EEXIST", "ENOENT", "ENOTDIR", "EACCES"].includes(code ?? "")) throw err;
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

/**
 * `checkout-index` from a scratch index holding the target tree into a private staging folder
 * (exact bytes, the executable bit, symlinks as symlinks), then each file moved into the work tree
 * through the confined operations.
 */
async function writeFiles(fs: ConfinedFs, git: GitContext, input: ApplyRestoreInput, paths: string[], result: AppliedRestore): Promise<void> {
  const indexFile = join(input.scratchDir, `restore-${randomBytes(6).toString("hex")}.tmp`);
  const stage = await mkdtemp(join(input.scratchDir, "restore-stage-"));
  try {
    await runGit(git, ["read-tree", input.targetTree], { indexFile, signal: input.signal });
    const run = await runGit(git, ["checkout-index", "-f", "-z", `--prefix=${stage}/`, "--stdin"], { indexFile, input: joinNul(paths), okCodes: [0, 1, 128], signal: input.signal });
    for (const path of paths) {
      try {
        await moveIn(fs, join(stage, path), join(git.workTree, path));
        result.restored.push(path);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        result.failed.push({ path, error: code === "ENOENT" ? stderrAbout(run.stderr, path) : errorMessage(err) });
      }
    }
  } finally {
    await rm(stage, { recursive: true, force: true });
    await unlink(indexFile).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  }
}

/** Replaces whatever is at `to` (a file or a link, never followed) by the staged file or link `from`. */
async function moveIn(fs: ConfinedFs, from: string, to: string): Promise<void> {
  const st = await lstat(from);
  await fs.mkdir(dirname(to));
  await fs.unlink(to).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== "ENOENT") throw err;
  });
  if (st.isSymbolicLink()) await fs.symlink(await readlink(from), to);
  else await fs.writeFile(to, await readFile(from), st.mode & 0o777);
}

function stderrAbout(stderr: string, path: string): string {
  return stderr.split("\n").find((line) => line.includes(path)) ?? (stderr || "git could not write the file");
}
