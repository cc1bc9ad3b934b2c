// File checkpoints of the cwd as a session uses them: one per user message that starts
// or joins a run, taken beside the model request and awaited before the run's first tool; each is
// recorded in the session file (a `custom` entry, so it survives restarts and switch_session and
// never enters the context) and announced with `checkpoint_created`. The engine lives in
// src/checkpoints/ and is loaded on first use.
import type { Checkpoint, CheckpointDiff, CheckpointStore } from "../checkpoints/index.js";
import { PithError, errorMessage } from "../shared/errors.js";
import type { AgentSessionEvent } from "../shared/types.js";
import type { Conversation } from "./conversation.js";
import type { FileCheckpointSettings } from "./settings.js";
import type { SessionEntry } from "../store/entry-types.js";

/** `customType` of the session entry that records a checkpoint. */
export const CHECKPOINT_ENTRY_TYPE = "pith.checkpoint";
/** `get_checkpoints`' `prompt` is the message cut to this many characters. */
const PROMPT_CHARS = 200;
/** How long closing the session waits for a checkpoint under way (a git run may take up to its own 120 s timeout). */
const CLOSE_WAIT_MS = 10_000;

export type CheckpointKindName = "prompt" | "restore";

/** One checkpoint as `get_checkpoints` lists it. */
export interface CheckpointItem {
  checkpointId: string;
  /** The user message's entry (kind "prompt"), or the leaf the restore left (kind "restore"; "root" for none). */
  entryId: string;
  createdAt: string;
  prompt: string;
  kind: CheckpointKindName;
}

/** What the session entry holds: the listing plus what restores it after a restart. */
interface CheckpointRecord extends CheckpointItem {
  commit: string;
  tree: string;
}

export type CheckpointFeatureState = { enabled: true } | { enabled: false; reason: string };

export type RestoreMode = "files" | "conversation" | "both";

export interface RestoreCheckpointResult {
  restored: string[];
  deleted: string[];
  undoCheckpointId: string;
  skipped: Array<{ path: string; reason: string }>;
  failed: Array<{ path: string; error: string }>;
}

export interface SessionCheckpointsOptions {
  cwd: string;
  pithHome: string;
  /** Absent or `enabled: false`: the feature is off and nothing is spawned. */
  settings: FileCheckpointSettings | undefined;
  /** Where `git` is searched (the composition root passes PATH). */
  pathEnv: string | undefined;
  conversation: Conversation;
  isBusy(): boolean;
  /** Runs `work` with the session marked busy (a prompt meanwhile is refused or queued, as during a run). */
  exclusive<T>(work: () => Promise<T>): Promise<T>;
  emit(event: AgentSessionEvent): void;
  log(message: string): void;
}

export class SessionCheckpoints {
  private engine?: Promise<CheckpointStore | undefined>;
  private offReason: string | undefined;
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly o: SessionCheckpointsOptions) {
    if (!o.settings?.enabled) this.offReason = "fileCheckpoints.enabled is false (set it, or pass --file-checkpoints)";
  }

  /** Finds git (once); the front door calls it after `ready`, the first checkpoint otherwise. */
  start(): Promise<CheckpointStore | undefined> {
    this.engine ??= this.open();
    return this.engine;
  }

  /** The `fileCheckpoints` view of get_state (waits for the git probe when one is under way). */
  async state(): Promise<CheckpointFeatureState> {
    const store = this.offReason ? undefined : await this.start();
    if (this.offReason || !store) return { enabled: false, reason: this.offReason ?? "unknown reason" };
    return store.status();
  }

  /**
   * A user message entered the context (its entry is `entryId`): its checkpoint starts once the
   * event has been delivered, beside the model request; `beforeTool` waits for it.
   */
  onUserMessage(entryId: string, text: string): void {
    if (this.offReason) return;
    const sessionId = this.o.conversation.log.sessionId;
    const job = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.takeAndRecord({ kind: "prompt", entryId, prompt: text.slice(0, PROMPT_CHARS), sessionId }))
      .finally(() => this.pending.delete(job));
    this.pending.add(job);
  }

  /** Resolves once every checkpoint started so far is taken (or failed): tools may change files. */
  async beforeTool(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }

  /** Before the session file closes: lets checkpoints under way be recorded, waiting at most `maxMs`. */
  async settle(maxMs = CLOSE_WAIT_MS): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, maxMs)));
    try {
      await Promise.race([this.beforeTool(), limit]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** `get_checkpoints`: the checkpoints recorded in the session file, oldest first (once those under way are taken). */
  async list(): Promise<CheckpointItem[]> {
    await this.beforeTool();
    return this.records().map(({ checkpointId, entryId, createdAt, prompt, kind }) => ({ checkpointId, entryId, createdAt, prompt, kind }));
  }

  /** `diff_checkpoint`: from a checkpoint to the files now, or to another checkpoint. */
  async diff(checkpointId: unknown, toCheckpointId?: unknown): Promise<CheckpointDiff> {
    const store = await this.requireStore();
    await this.beforeTool();
    const from = this.find(checkpointId, "checkpointId");
    const to = toCheckpointId === undefined ? undefined : this.find(toCheckpointId, "toCheckpointId");
    return store.diff(ref(from), to && ref(to), { sessionId: this.o.conversation.log.sessionId });
  }

  /**
   * `restore_checkpoint`: files (default), conversation or both, after an undo checkpoint of the
   * state now. Refused while a run is active.
   */
  async restore(checkpointId: unknown, mode: unknown = "files", paths?: unknown): Promise<RestoreCheckpointResult> {
    if (mode !== "files" && mode !== "conversation" && mode !== "both") {
      throw new PithError("invalid_request", `Invalid "mode": expected "files", "conversation" or "both", got ${JSON.stringify(mode)}`);
    }
    if (paths !== undefined && !(Array.isArray(paths) && paths.every((p) => typeof p === "string"))) {
      throw new PithError("invalid_request", 'Invalid "paths": expected an array of strings');
    }
    if (this.o.isBusy()) throw new PithError("busy", "Cannot restore a checkpoint while a run is active: abort it first");
    return this.o.exclusive(() => this.restoreNow(checkpointId, mode, paths as string[] | undefined));
  }

  private async restoreNow(checkpointId: unknown, mode: RestoreMode, paths: string[] | undefined): Promise<RestoreCheckpointResult> {
    const store = await this.requireStore();
    await this.beforeTool();
    const target = this.find(checkpointId, "checkpointId");
    // Checked before anything changes: where the conversation goes (and, below, that the checkpoint's files still exist).
    const leaf = mode === "files" ? undefined : this.leafBefore(target);
    const log = this.o.conversation.log;
    const sessionId = log.sessionId;
    const leafBefore = log.leafId ?? "root";
    let result: RestoreCheckpointResult;
    let undo: Checkpoint;
    if (mode === "conversation") {
      await store.diff(ref(target), ref(target), { sessionId });
      // No file changes, but the answer still carries an undo checkpoint of the files now.
      const taken = await store.take({ sessionId, kind: "restore" });
      if (!taken) throw new PithError("unavailable", `File checkpoints are off: ${this.offReasonOf(store)}`);
      undo = taken;
      result = { restored: [], deleted: [], skipped: [], failed: [], undoCheckpointId: taken.checkpointId };
    } else {
      const applied = await store.restore(ref(target), { sessionId, paths });
      undo = applied.undoCheckpoint;
      result = { restored: applied.restored, deleted: applied.deleted, skipped: applied.skipped, failed: applied.failed, undoCheckpointId: applied.undoCheckpointId };
    }
    if (leaf !== undefined) {
      log.moveLeaf(leaf);
      this.o.conversation.load();
    }
    this.record(undo, { kind: "restore", entryId: leafBefore, prompt: "" });
    return result;
  }

  // ── internals ─────────────────────────────────────────────────────────────

  private async open(): Promise<CheckpointStore | undefined> {
    const settings = this.o.settings;
    if (!settings?.enabled) return undefined;
    try {
      const { probeGit, openCheckpointStore } = await import("../checkpoints/index.js");
      const probe = await probeGit({ pathEnv: this.o.pathEnv });
      if (!probe.available) {
        this.offReason = probe.reason;
        this.o.log(`File checkpoints are off: ${probe.reason}`);
        return undefined;
      }
      return openCheckpointStore({
        home: this.o.pithHome,
        cwd: this.o.cwd,
        gitPath: probe.gitPath,
        pathEnv: this.o.pathEnv,
        maxFileBytes: settings.maxFileBytes,
        maxFiles: settings.maxFiles,
        retentionDays: settings.retentionDays,
        onNotice: (message) => {
          this.o.log(message);
          this.o.emit({ type: "checkpoint_notice", message });
        },
      });
    } catch (err) {
      this.offReason = `cannot start file checkpoints: ${errorMessage(err)}`;
      this.o.log(`File checkpoints are off: ${this.offReason}`);
      return undefined;
    }
  }

  private async requireStore(): Promise<CheckpointStore> {
    const store = this.offReason ? undefined : await this.start();
    if (!store) throw new PithError("unavailable", `File checkpoints are off: ${this.offReason ?? "unknown reason"}`);
    return store;
  }

  private offReasonOf(store: CheckpointStore): string {
    const status = store.status();
    return status.enabled ? "unknown reason" : status.reason;
  }

  private async takeAndRecord(what: { kind: "prompt"; entryId: string; prompt: string; sessionId: string }): Promise<void> {
    const store = await this.start();
    if (!store) return;
    let checkpoint: Checkpoint | undefined;
    try {
      checkpoint = await store.take({ sessionId: what.sessionId, kind: what.kind });
    } catch (err) {
      this.o.log(`File checkpoint failed (the run goes on without it): ${errorMessage(err)}`);
      return;
    }
    // undefined: the folder is too big (the store has sent its one notice); a switched session keeps its own file.
    if (!checkpoint || this.o.conversation.log.sessionId !== what.sessionId) return;
    this.record(checkpoint, what);
  }

  private record(checkpoint: Checkpoint, what: { kind: CheckpointKindName; entryId: string; prompt: string }): void {
    const data: CheckpointRecord = {
      checkpointId: checkpoint.checkpointId,
      entryId: what.entryId,
      createdAt: checkpoint.createdAt,
      prompt: what.prompt,
      kind: what.kind,
      commit: checkpoint.commit,
      tree: checkpoint.tree,
    };
    try {
      this.o.conversation.log.append({ type: "custom", customType: CHECKPOINT_ENTRY_TYPE, data });
    } catch (err) {
      this.o.log(`failed to record checkpoint ${checkpoint.checkpointId}: ${errorMessage(err)}`);
      return;
    }
    this.o.emit({ type: "checkpoint_created", checkpointId: checkpoint.checkpointId, entryId: what.entryId, kind: what.kind });
  }

  private records(): CheckpointRecord[] {
    return this.o.conversation.log.customEntries("custom", CHECKPOINT_ENTRY_TYPE).flatMap((e) => {
      const r = recordOf(e);
      return r ? [r] : [];
    });
  }

  private find(checkpointId: unknown, field: string): CheckpointRecord {
    if (typeof checkpointId !== "string" || checkpointId === "") throw new PithError("invalid_request", `Invalid "${field}": expected a checkpoint id`);
    const found = this.records().find((r) => r.checkpointId === checkpointId);
    if (!found) throw new PithError("not_found", `Unknown checkpoint: ${checkpointId} (get_checkpoints lists this session's checkpoints)`);
    return found;
  }

  /** Where `conversation` mode moves the session: just before the checkpoint's user message, or back to the leaf a restore left. */
  private leafBefore(target: CheckpointRecord): string | null {
    const log = this.o.conversation.log;
    if (target.kind === "restore") {
      if (target.entryId === "root") return null;
      if (!log.getEntry(target.entryId)) throw new PithError("not_found", `Entry ${target.entryId} of checkpoint ${target.checkpointId} is not in this session file`);
      return target.entryId;
    }
    const entry = log.getEntry(target.entryId);
    if (!entry) throw new PithError("not_found", `The user message of checkpoint ${target.checkpointId} is not in this session file`);
    return entry.parentId;
  }
}

function ref(r: CheckpointRecord): { checkpointId: string; commit: string } {
  return { checkpointId: r.checkpointId, commit: r.commit };
}

const HEX = /^[0-9a-f]+$/;

/** A checkpoint entry's data, checked (a damaged entry is not a checkpoint). */
function recordOf(e: SessionEntry): CheckpointRecord | undefined {
  if (e.type !== "custom" || e.customType !== CHECKPOINT_ENTRY_TYPE) return undefined;
  const d = e.data as Partial<CheckpointRecord> | undefined;
  if (!d || typeof d !== "object") return undefined;
  const strings = [d.checkpointId, d.entryId, d.createdAt, d.prompt, d.commit, d.tree].every((v) => typeof v === "string");
  if (!strings || (d.kind !== "prompt" && d.kind !== "restore") || !HEX.test(d.checkpointId as string) || !HEX.test(d.commit as string)) return undefined;
  return d as CheckpointRecord;
}
