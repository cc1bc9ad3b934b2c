// Retention: checkpoints older than the cutoff lose their refs, session indexes not written since
// the cutoff are deleted, and a repack plus `git prune --expire=<cutoff>` remove the objects no
// ref reaches that are older than the cutoff. One process at a time (a lock file).
//
// Objects a snapshot relies on are safe: a snapshot reuses only an index younger than the cutoff
// plus a margin (see snapshot.ts), and that index describes a commit whose ref is kept. The one
// window left is git's own (gc has it too): a blob that exists only as an old unreachable object,
// found again by a snapshot while a repack that started before the snapshot's ref existed drops it.
import { open, readdir, stat, unlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { GitContext } from "./git-runner.js";
import { runGit } from "./git-runner.js";
import { deleteCheckpointRefs, listCheckpoints } from "./refs.js";
import type { PruneResult } from "./types.js";

export interface PruneInput {
  /** Checkpoints, indexes and unreachable objects older than this (ms) go. */
  cutoff: number;
  indexDir: string;
  /** Temporary index files older than this (ms) are left-overs of crashed runs. */
  staleTmpBefore: number;
  signal?: AbortSignal;
}

export async function pruneCheckpoints(git: GitContext, input: PruneInput): Promise<PruneResult> {
  const expired = (await listCheckpoints(git, input.signal)).filter((c) => Date.parse(c.createdAt) < input.cutoff);
  await deleteCheckpointRefs(git, expired, input.signal);
  await pruneIndexFiles(input);
  // What gc does, by hand: one pack of everything still reachable; unreachable packed objects
  // newer than the cutoff come out loose (keeping their pack's age), older ones are dropped; then
  // loose unreachable objects older than the cutoff go.
  const expire = new Date(input.cutoff).toISOString();
  await runGit(git, ["repack", "-A", "-d", "-q", `--unpack-unreachable=${expire}`], { signal: input.signal });
  await runGit(git, ["prune", `--expire=${expire}`], { signal: input.signal });
  return { removed: expired.map((c) => c.checkpointId) };
}

/**
 * Runs `fn` holding `<lockFile>` (O_EXCL), or returns undefined when another process holds it.
 * A lock older than `staleMs` is a crashed run's and is taken over.
 */
export async function withPruneLock<T>(lockFile: string, staleMs: number, fn: () => Promise<T>): Promise<T | undefined> {
  let handle;
  try {
    handle = await open(lockFile, "wx");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    const age = Date.now() - (await stat(lockFile)).mtimeMs;
    if (age < staleMs) return undefined;
    await unlink(lockFile);
    return withPruneLock(lockFile, staleMs, fn);
  }
  await handle.close();
  try {
    return await fn();
  } finally {
    await unlink(lockFile).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "ENOENT") throw err;
    });
  }
}

async function pruneIndexFiles(input: PruneInput): Promise<void> {
  const names = await readdir(input.indexDir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENOENT") return [] as string[];
    throw err;
  });
  for (const name of names) {
    const file = join(input.indexDir, name);
    const before = name.endsWith(".tmp") ? input.staleTmpBefore : input.cutoff;
    try {
      if ((await stat(file)).mtimeMs < before) await unlink(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    }
  }
}

/** True when retention last ran before `since` (ms) or never. */
export async function pruneDue(stampFile: string, since: number): Promise<boolean> {
  try {
    return (await stat(stampFile)).mtimeMs < since;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw err;
  }
}

export async function markPruned(stampFile: string, at: number): Promise<void> {
  await writeFile(stampFile, "");
  await utimes(stampFile, at / 1000, at / 1000);
}
