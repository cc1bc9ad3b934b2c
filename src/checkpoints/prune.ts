// Retention: checkpoints older than the cutoff lose their refs, session indexes not written since
// the cutoff are deleted, and `git prune --expire=<cutoff>` removes the loose objects that no ref
// reaches and that are older than the cutoff. Objects a running snapshot may still rely on are
// safe: a snapshot only reuses an index younger than the cutoff plus a margin (see snapshot.ts),
// whose blobs the commit made with it (younger than the cutoff, so still referenced) holds, and
// git freshens the mtime of any object it writes again. Nothing here runs `gc` or repacks.
import { readdir, stat, unlink, utimes, writeFile } from "node:fs/promises";
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
  await runGit(git, ["prune", `--expire=${new Date(input.cutoff).toISOString()}`], { signal: input.signal });
  return { removed: expired.map((c) => c.checkpointId) };
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
