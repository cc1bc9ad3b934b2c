// The checkpoint store of one cwd: take, diff, restore, list, prune. Operations on one store run
// one at a time (a promise chain); different stores, sessions and processes sharing the shadow
// repository are safe without it (private indexes, create-only refs, no gc).
import { stat } from "node:fs/promises";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { errorMessage } from "../shared/errors.js";
import { diffTrees } from "./diff.js";
import { CheckpointError } from "./errors.js";
import type { GitContext } from "./git-runner.js";
import { atLeast, gitVersion } from "./probe.js";
import { markPruned, pruneCheckpoints, pruneDue, withPruneLock } from "./prune.js";
import { commitCheckpoint, listCheckpoints, resolveCheckpoint, type IdAges } from "./refs.js";
import { applyRestore } from "./restore.js";
import { ensureShadowRepo, excludePathspecs, sessionIndexName, shadowLayout, type ShadowLayout } from "./shadow-repo.js";
import { takeSnapshot, type IndexTree, type Snapshot } from "./snapshot.js";
import {
  CHECKPOINT_DEFAULTS,
  type Checkpoint,
  type CheckpointDiff,
  type CheckpointInfo,
  type CheckpointRef,
  type CheckpointStatus,
  type CheckpointStoreOptions,
  type PruneResult,
  type RestoreOptions,
  type RestoreResult,
  type TakeOptions,
} from "./types.js";

const DAY_MS = 24 * 60 * 60 * 1000;
/** A retention run older than this is a crashed one. */
const PRUNE_LOCK_STALE_MS = 60 * 60 * 1000;
/** update-index batches bulk check-in into one pack since git 2.37. */
const BULK_CHECKIN_SINCE = [2, 37] as const;

interface Ready {
  git: GitContext;
  layout: ShadowLayout;
}

export function openCheckpointStore(options: CheckpointStoreOptions): CheckpointStore {
  return new CheckpointStore(options);
}

export class CheckpointStore {
  private readonly opts: Required<Omit<CheckpointStoreOptions, "onNotice" | "pathEnv">> & Pick<CheckpointStoreOptions, "onNotice" | "pathEnv">;
  private ready?: Promise<Ready>;
  private chain: Promise<unknown> = Promise.resolve();
  private offReason?: string;
  private pruneChecked = false;
  /** Per session index: the tree its last kept snapshot wrote. */
  private readonly lastTrees = new Map<string, IndexTree>();

  constructor(options: CheckpointStoreOptions) {
    const o = {
      ...options,
      maxFileBytes: options.maxFileBytes ?? CHECKPOINT_DEFAULTS.maxFileBytes,
      maxFiles: options.maxFiles ?? CHECKPOINT_DEFAULTS.maxFiles,
      retentionDays: options.retentionDays ?? CHECKPOINT_DEFAULTS.retentionDays,
      maxPatchBytes: options.maxPatchBytes ?? CHECKPOINT_DEFAULTS.maxPatchBytes,
      gitTimeoutMs: options.gitTimeoutMs ?? CHECKPOINT_DEFAULTS.gitTimeoutMs,
      now: options.now ?? Date.now,
    };
    for (const key of ["maxFileBytes", "maxFiles", "retentionDays", "maxPatchBytes", "gitTimeoutMs"] as const) {
      if (!(typeof o[key] === "number" && o[key] > 0)) throw new CheckpointError("invalid_option", `checkpoint option ${key} must be a positive number, got ${String(o[key])}`);
    }
    this.opts = o;
  }

  /** Off once the folder proved to hold more than `maxFiles` files (for the life of this store). */
  status(): CheckpointStatus {
    return this.offReason ? { enabled: false, reason: this.offReason } : { enabled: true };
  }

  /**
   * Records the folder as it is now. Resolves `undefined` when the store is off (the folder holds
   * more than `maxFiles` files; `onNotice` is told once). Rejects with a CheckpointError when git fails.
   */
  take(options: TakeOptions): Promise<Checkpoint | undefined> {
    return this.serial(async () => {
      const checkpoint = await this.takeNow(options);
      if (checkpoint) this.schedulePrune();
      return checkpoint;
    });
  }

  /** Files that differ from checkpoint `from` to checkpoint `to`, or to the files now when `to` is absent. */
  diff(from: CheckpointRef, to?: CheckpointRef, options: { sessionId?: string; signal?: AbortSignal } = {}): Promise<CheckpointDiff> {
    return this.serial(async () => {
      const { git } = await this.init();
      const source = await resolveCheckpoint(git, from, await this.idAges(), options.signal);
      if (to !== undefined) {
        const target = await resolveCheckpoint(git, to, await this.idAges(), options.signal);
        return diffTrees(git, source.tree, target.tree, this.opts.maxPatchBytes, options.signal);
      }
      const snap = await this.snapshot(options.sessionId ?? "diff", options.signal);
      if (!snap) throw this.offError();
      try {
        return await diffTrees(git, source.tree, snap.tree, this.opts.maxPatchBytes, options.signal);
      } finally {
        // Never saved: a session's index must describe a committed checkpoint (see snapshot.ts).
        await snap.discard();
      }
    });
  }

  /**
   * Puts the files a checkpoint covers back as they were (only under `paths` when given), after
   * taking an undo checkpoint (`kind: "restore"`) of the state before. An unknown or pruned id
   * and a path outside the cwd fail before anything is written.
   */
  restore(ref: CheckpointRef, options: RestoreOptions): Promise<RestoreResult> {
    return this.serial(async () => {
      const { git, layout } = await this.init();
      const pathspecs = this.pathspecs(options.paths, layout);
      const target = await resolveCheckpoint(git, ref, await this.idAges(), options.signal);
      const undo = await this.takeNow({ sessionId: options.sessionId, kind: "restore", signal: options.signal });
      if (!undo) throw this.offError();
      const applied = await applyRestore(git, { nowTree: undo.tree, targetTree: target.tree, pathspecs, scratchDir: layout.indexDir, signal: options.signal });
      return { ...applied, undoCheckpointId: undo.checkpointId, undoCheckpoint: undo };
    });
  }

  /** Every checkpoint of this cwd in the shadow repository (all sessions), oldest first. */
  list(signal?: AbortSignal): Promise<CheckpointInfo[]> {
    return this.serial(async () => listCheckpoints((await this.init()).git, signal));
  }

  /** Removes checkpoints older than `retentionDays` and the objects only they held. */
  prune(signal?: AbortSignal): Promise<PruneResult> {
    return this.serial(() => this.pruneNow(signal));
  }

  /** Resolves when every operation started so far has finished (automatic pruning included). */
  async idle(): Promise<void> {
    for (let seen: Promise<unknown> | undefined; seen !== this.chain; ) {
      seen = this.chain;
      await seen.then(
        () => undefined,
        () => undefined,
      );
    }
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.chain.then(fn, fn);
    this.chain = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  private init(): Promise<Ready> {
    this.ready ??= (async () => {
      const pathEnv = this.opts.pathEnv ?? "/usr/bin:/bin";
      let layout: ShadowLayout;
      try {
        layout = await shadowLayout(this.opts.home, this.opts.cwd);
        await ensureShadowRepo(layout, { gitPath: this.opts.gitPath, pathEnv, timeoutMs: this.opts.gitTimeoutMs });
      } catch (err) {
        if (err instanceof CheckpointError) throw err;
        throw new CheckpointError("unavailable", `cannot keep checkpoints of ${this.opts.cwd} in ${this.opts.home}: ${errorMessage(err)}`, { cause: err });
      }
      const version = await gitVersion(this.opts.gitPath, pathEnv, this.opts.gitTimeoutMs);
      const bulkCheckin = atLeast(version, BULK_CHECKIN_SINCE);
      const git: GitContext = { gitPath: this.opts.gitPath, gitDir: layout.gitDir, workTree: layout.workTree, home: layout.root, pathEnv, timeoutMs: this.opts.gitTimeoutMs, bulkCheckin };
      return { git, layout };
    })();
    // A failed start (git missing, home unwritable) is retried by the next call.
    this.ready.catch(() => (this.ready = undefined));
    return this.ready;
  }

  private async takeNow(options: TakeOptions): Promise<Checkpoint | undefined> {
    if (this.offReason) return undefined;
    const { git } = await this.init();
    const createdAt = this.opts.now();
    const snap = await this.snapshot(options.sessionId, options.signal);
    if (!snap) return undefined;
    try {
      const { checkpointId, commit } = await commitCheckpoint(git, { tree: snap.tree, sessionId: options.sessionId, kind: options.kind, createdAt, signal: options.signal });
      const kept = await snap.keep();
      const indexName = sessionIndexName(options.sessionId);
      if (kept) this.lastTrees.set(indexName, kept);
      else this.lastTrees.delete(indexName);
      return {
        checkpointId,
        sessionId: options.sessionId,
        kind: options.kind,
        commit,
        tree: snap.tree,
        createdAt: new Date(createdAt).toISOString(),
        files: snap.files,
        skipped: snap.skipped,
      };
    } catch (err) {
      await snap.discard();
      throw err;
    }
  }

  /** The folder's tree now; undefined when the store is or goes off. */
  private async snapshot(sessionId: string, signal?: AbortSignal): Promise<Snapshot | undefined> {
    if (this.offReason) return undefined;
    const { git, layout } = await this.init();
    const snap = await takeSnapshot(git, {
      indexDir: layout.indexDir,
      indexName: sessionIndexName(sessionId),
      lastTree: this.lastTrees.get(sessionIndexName(sessionId)),
      pathspecs: [".", ...excludePathspecs(layout)],
      maxFileBytes: this.opts.maxFileBytes,
      maxFiles: this.opts.maxFiles,
      reuseIndexSince: this.opts.now() - this.reuseWindowMs(),
      signal,
    });
    if (snap) return snap;
    this.offReason = `${layout.workTree} holds more than ${this.opts.maxFiles} files (raise fileCheckpoints.maxFiles to cover it)`;
    this.opts.onNotice?.(`File checkpoints are off for this session: ${this.offReason}.`);
    return undefined;
  }

  private offError(): CheckpointError {
    return new CheckpointError("unavailable", `File checkpoints are off: ${this.offReason ?? "unknown reason"}`);
  }

  private retentionMs(): number {
    return this.opts.retentionDays * DAY_MS;
  }

  /** A saved index is reused only while the commit made with it is safely inside retention. */
  private reuseWindowMs(): number {
    return this.retentionMs() - Math.min(DAY_MS, this.retentionMs() / 2);
  }

  private async idAges(): Promise<IdAges> {
    const { layout } = await this.init();
    const born = (await stat(join(layout.gitDir, "config"))).mtimeMs;
    return { prunedBefore: this.opts.now() - this.retentionMs(), existedSince: born - DAY_MS };
  }

  private pathspecs(paths: string[] | undefined, layout: ShadowLayout): string[] {
    if (paths === undefined) return [];
    if (!Array.isArray(paths) || paths.length === 0) throw new CheckpointError("invalid_path", "paths must name at least one file or folder");
    const roots = [resolve(this.opts.cwd), layout.workTree];
    const specs: string[] = [];
    for (const p of paths) {
      if (typeof p !== "string" || p === "" || p.includes("\0")) throw new CheckpointError("invalid_path", `Not a path: ${JSON.stringify(p)}`);
      const rel = roots.map((root) => relative(root, resolve(root, p))).find((r) => !r.startsWith("..") && !isAbsolute(r));
      if (rel === undefined) throw new CheckpointError("invalid_path", `Path outside the working folder: ${p}`);
      if (rel === "") return [];
      specs.push(rel.split(sep).join("/"));
    }
    return specs;
  }

  /** Once per store, after its first checkpoint: prune when the last run is a day old. */
  private schedulePrune(): void {
    if (this.pruneChecked) return;
    this.pruneChecked = true;
    void this.serial(async () => {
      const { layout } = await this.init();
      if (await pruneDue(layout.pruneStamp, this.opts.now() - DAY_MS)) await this.pruneNow();
    }).catch((err: unknown) => this.opts.onNotice?.(`Pruning old file checkpoints failed: ${errorMessage(err)}`));
  }

  private async pruneNow(signal?: AbortSignal): Promise<PruneResult> {
    const { git, layout } = await this.init();
    const now = this.opts.now();
    const run = () => pruneCheckpoints(git, { cutoff: now - this.retentionMs(), indexDir: layout.indexDir, staleTmpBefore: now - DAY_MS, signal });
    const result = await withPruneLock(layout.pruneLock, PRUNE_LOCK_STALE_MS, run);
    if (!result) return { removed: [], busy: true };
    await markPruned(layout.pruneStamp, now);
    return result;
  }

}
