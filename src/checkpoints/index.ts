/**
 * File checkpoints of a working folder, kept in a shadow git repository driven through
 * the `git` program. This is the module's only door; it depends on `src/shared/` alone and knows
 * nothing of sessions, settings or the wire.
 *
 * What is covered: every file under the cwd that git would track there — honouring the project's
 * `.gitignore` files (not the user's global excludes) — whatever changed it (edit tools, bash,
 * the user). Not covered: `.git` and `node_modules` anywhere, files larger than `maxFileBytes`,
 * folders holding their own git repository (git does not look inside them), sockets and fifos,
 * file names that are not UTF-8, pith's home when it lies inside the cwd, and anything outside the
 * cwd. Permission bits other than the executable bit are not recorded (a restored file gets the
 * umask's permissions).
 *
 * Wiring, step by step:
 *  1. Only when `fileCheckpoints.enabled`, after `ready` (it spawns `git --version`):
 *     `probeGit({ pathEnv: process.env.PATH })`. When `available` is false the feature is off and
 *     `reason` is what `get_state` shows; prompts are unaffected.
 *  2. Per session/cwd: `openCheckpointStore({ home: PITH_HOME, cwd, gitPath, pathEnv, maxFileBytes,
 *     maxFiles, retentionDays, onNotice })`. Opening costs nothing; the shadow repository is made
 *     on first use, under `<home>/checkpoints/`.
 *  3. When a user message is accepted: `const pending = store.take({ sessionId, kind: "prompt" })`
 *     without awaiting it (it runs beside the model request); await `pending` before the run's
 *     first tool executes. Start it once the provider request is on its way: each git run blocks
 *     the event loop while Node forks and execs it (~8 ms on the 2-core machines here; 3 runs
 *     for an unchanged folder). A result of `undefined` means the store is off (the folder has more than
 *     `maxFiles` files; `onNotice` fired once and `status()` says why): record nothing. A rejection
 *     (CheckpointError, reason `git_failed`/`unavailable`) should become a warning, not a failed run.
 *     On success append a session entry holding `checkpointId`, `commit`, `tree`, `createdAt` and
 *     the user message's entry id, then emit `checkpoint_created {checkpointId, entryId}`.
 *  4. `diff_checkpoint`: `store.diff({checkpointId, commit}, toRef?, { sessionId })` →
 *     `{files, patch, truncated}` (pass the recorded commit so a pruned checkpoint reads "pruned").
 *  5. `restore_checkpoint` (refuse while a run is active): `store.restore({checkpointId, commit},
 *     { sessionId, paths })` → `{restored, deleted, skipped, failed, undoCheckpointId,
 *     undoCheckpoint}`; record `undoCheckpoint` as a `kind: "restore"` entry like step 3.
 *  6. Errors are `CheckpointError` (a PithError): `reason` `unknown_checkpoint` / `pruned` (code
 *     `not_found`, nothing changed), `invalid_path` (a `paths` entry outside the cwd), `unavailable`,
 *     `git_failed`, `aborted`; `openCheckpointStore` throws `invalid_option` for an out-of-range limit.
 *
 * Concurrency: each store runs its operations one at a time. Stores of different sessions or
 * processes share the shadow repository safely: each snapshot works on a private link to its
 * session's index, refs are created only if absent, automatic gc is off. Retention (a repack and
 * a prune, under a lock file) runs after a store's first checkpoint when the last run is a day
 * old, or on `store.prune()`.
 * Load this module with a dynamic `import()` (and list it in src/tools/startup-bundle.test.ts).
 */
export { CheckpointError, type CheckpointErrorReason } from "./errors.js";
export { MIN_GIT_VERSION, probeGit, type GitProbe, type ProbeOptions } from "./probe.js";
export { CheckpointStore, openCheckpointStore } from "./store.js";
export {
  CHECKPOINT_DEFAULTS,
  type Checkpoint,
  type CheckpointDiff,
  type CheckpointInfo,
  type CheckpointKind,
  type CheckpointRef,
  type CheckpointStatus,
  type CheckpointStoreOptions,
  type DiffFile,
  type FileStatus,
  type PruneResult,
  type RestoreOptions,
  type RestoreResult,
  type SkippedFiles,
  type TakeOptions,
} from "./types.js";
