// Checkpoints as commits in the shadow repository, one ref each: refs/pith/checkpoints/<id>.
// Commits have no parents, so pruning a ref frees exactly that checkpoint's unshared objects.
// A ref is created only if absent (`update-ref <ref> <new> ""`), atomically, so concurrent
// writers never overwrite each other. The commit message carries the metadata as JSON.
import { snowflake, snowflakeTime } from "../shared/ids.js";
import { CheckpointError } from "./errors.js";
import type { GitContext } from "./git-runner.js";
import { runGit } from "./git-runner.js";
import type { CheckpointInfo, CheckpointKind, CheckpointRef } from "./types.js";

export const REF_PREFIX = "refs/pith/checkpoints/";

export function isCheckpointId(id: string): boolean {
  return /^[0-9a-f]{16}$/.test(id);
}

interface CommitInput {
  tree: string;
  sessionId: string;
  kind: CheckpointKind;
  createdAt: number;
  signal?: AbortSignal;
}

/** Commits `tree` and creates the checkpoint's ref under a new id (another on the rare clash with a ref another process made). */
export async function commitCheckpoint(git: GitContext, input: CommitInput): Promise<{ checkpointId: string; commit: string }> {
  const date = `@${Math.floor(input.createdAt / 1000)} +0000`;
  const env = { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  for (let attempt = 1; ; attempt++) {
    const checkpointId = snowflake(input.createdAt);
    const meta = { checkpointId, sessionId: input.sessionId, kind: input.kind, createdAt: input.createdAt };
    const message = `pith checkpoint ${checkpointId} (${input.kind})\n\n${JSON.stringify(meta)}\n`;
    const run = await runGit(git, ["commit-tree", input.tree, "-F", "-"], { input: message, env, signal: input.signal });
    const commit = run.stdout.toString("utf8").trim();
    try {
      await runGit(git, ["update-ref", `${REF_PREFIX}${checkpointId}`, commit, ""], { signal: input.signal });
      return { checkpointId, commit };
    } catch (err) {
      if (attempt >= 3 || !(err instanceof CheckpointError && /already exists/.test(err.message))) throw err;
    }
  }
}

export interface ResolvedCheckpoint {
  checkpointId: string;
  commit: string;
  tree: string;
}

/** The times (ms) that tell a pruned id from one that never existed, when the caller has no commit to go by. */
export interface IdAges {
  /** Ids made before this may have been pruned. */
  prunedBefore: number;
  /** Ids made before this (the shadow repository's birth, less a day) never existed here. */
  existedSince: number;
}

/**
 * Finds a checkpoint and checks that every object of its tree is still there. Throws
 * `unknown_checkpoint` or `pruned` (never changing anything).
 */
export async function resolveCheckpoint(git: GitContext, ref: CheckpointRef, ages: IdAges, signal?: AbortSignal): Promise<ResolvedCheckpoint> {
  const { checkpointId, commit: recorded } = typeof ref === "string" ? { checkpointId: ref, commit: undefined } : ref;
  if (!isCheckpointId(checkpointId)) throw unknown(checkpointId);
  const byRef = await readCommit(git, `${REF_PREFIX}${checkpointId}`, signal);
  const found = byRef ?? (recorded && /^[0-9a-f]{40,64}$/.test(recorded) ? await readCommit(git, recorded, signal) : undefined);
  if (found && found.checkpointId !== checkpointId) throw unknown(checkpointId);
  if (!found) {
    const born = snowflakeTime(checkpointId);
    if (recorded || (born !== undefined && born < ages.prunedBefore && born >= ages.existedSince)) throw pruned(checkpointId);
    throw unknown(checkpointId);
  }
  if (!(await treeComplete(git, found.tree, signal))) throw pruned(checkpointId);
  return { checkpointId, commit: found.commit, tree: found.tree };
}

function unknown(id: string): CheckpointError {
  return new CheckpointError("unknown_checkpoint", `Unknown checkpoint: ${id}`);
}

function pruned(id: string): CheckpointError {
  return new CheckpointError("pruned", `Checkpoint ${id} is no longer available: its files were pruned`);
}

interface CommitFacts {
  commit: string;
  tree: string;
  checkpointId?: string;
}

/** `git cat-file --batch` on one name: undefined when it is missing or not a commit. */
async function readCommit(git: GitContext, name: string, signal?: AbortSignal): Promise<CommitFacts | undefined> {
  const out = (await runGit(git, ["cat-file", "--batch"], { input: `${name}\n`, signal })).stdout.toString("utf8");
  const header = /^([0-9a-f]{40,64}) commit \d+\n/.exec(out);
  if (!header) return undefined;
  const body = out.slice(header[0].length);
  const tree = /^tree ([0-9a-f]{40,64})$/m.exec(body)?.[1];
  if (!tree) return undefined;
  return { commit: header[1], tree, checkpointId: parseMeta(body.slice(body.indexOf("\n\n") + 2))?.checkpointId };
}

/** True when the tree and every tree and blob below it exist. */
async function treeComplete(git: GitContext, tree: string, signal?: AbortSignal): Promise<boolean> {
  try {
    const run = await runGit(git, ["rev-list", "--objects", "--missing=print", tree], { signal });
    return !/^\?/m.test(run.stdout.toString("utf8"));
  } catch (err) {
    if (err instanceof CheckpointError && err.reason === "git_failed") return false;
    throw err;
  }
}

interface Meta {
  checkpointId: string;
  sessionId: string;
  kind: CheckpointKind;
  createdAt: number;
}

/** The JSON line of a checkpoint commit message, or undefined for anything else. */
function parseMeta(message: string): Meta | undefined {
  const line = message.split("\n").find((l) => l.startsWith("{"));
  if (!line) return undefined;
  try {
    const v = JSON.parse(line) as Partial<Meta>;
    if (typeof v.checkpointId !== "string" || typeof v.sessionId !== "string" || typeof v.createdAt !== "number") return undefined;
    if (v.kind !== "prompt" && v.kind !== "restore") return undefined;
    return v as Meta;
  } catch (err) {
    if (err instanceof SyntaxError) return undefined;
    throw err;
  }
}

/** Every checkpoint the shadow repository holds, oldest first. */
export async function listCheckpoints(git: GitContext, signal?: AbortSignal): Promise<CheckpointInfo[]> {
  const format = "%(objectname) %(tree) %(contents:body)";
  const run = await runGit(git, ["for-each-ref", `--format=${format}`, REF_PREFIX], { signal });
  const list: CheckpointInfo[] = [];
  for (const line of run.stdout.toString("utf8").split("\n")) {
    const m = /^([0-9a-f]{40,64}) ([0-9a-f]{40,64}) (\{.*)$/.exec(line);
    const meta = m ? parseMeta(m[3]) : undefined;
    if (!m || !meta) continue;
    list.push({ checkpointId: meta.checkpointId, sessionId: meta.sessionId, kind: meta.kind, commit: m[1], tree: m[2], createdAt: new Date(meta.createdAt).toISOString() });
  }
  return list.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.checkpointId.localeCompare(b.checkpointId));
}

/** Deletes refs, each only if it still points where it did (one transaction). */
export async function deleteCheckpointRefs(git: GitContext, refs: Array<{ checkpointId: string; commit: string }>, signal?: AbortSignal): Promise<void> {
  if (refs.length === 0) return;
  const input = refs.map((r) => `delete ${REF_PREFIX}${r.checkpointId} ${r.commit}\n`).join("");
  await runGit(git, ["update-ref", "--stdin"], { input, signal });
}
