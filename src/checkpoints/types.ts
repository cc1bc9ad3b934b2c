// The checkpoint engine's public shapes: what a store is opened with and what its methods return.

/** Why a checkpoint was taken: before a user message's run, or just before a restore (its undo). */
export type CheckpointKind = "prompt" | "restore";

export interface CheckpointStoreOptions {
  /** pith's home folder; shadow repositories live in `<home>/checkpoints/<cwd key>/`. */
  home: string;
  /** The folder checkpoints cover (resolved through symlinks once, on first use). */
  cwd: string;
  /** Absolute path of the `git` program (`probeGit(...).gitPath`). */
  gitPath: string;
  /** PATH handed to git (it needs none of its helpers for this; default `/usr/bin:/bin`). */
  pathEnv?: string;
  /** Files larger than this are left out of checkpoints. Default 10 MiB. */
  maxFileBytes?: number;
  /** More covered files than this and the store gives up (one notice). Default 50,000. */
  maxFiles?: number;
  /** Checkpoints older than this many days are pruned (> 0). Default 14. */
  retentionDays?: number;
  /** The unified diff is cut at this many bytes (`truncated: true`). Default 1 MiB. */
  maxPatchBytes?: number;
  /** Any single git run longer than this is killed and fails. Default 120,000 ms. */
  gitTimeoutMs?: number;
  /** The clock (ms since the epoch); tests move it to exercise retention. */
  now?: () => number;
  /** One-time notices for the user (the store gave up on a huge folder; pruning failed). */
  onNotice?: (message: string) => void;
}

export interface TakeOptions {
  /** The session whose index this checkpoint reuses (any string; unsafe ones are hashed). */
  sessionId: string;
  kind: CheckpointKind;
  signal?: AbortSignal;
}

/** A checkpoint as the shadow repository lists it. */
export interface CheckpointInfo {
  /** 16 lowercase hex chars, time-ordered. */
  checkpointId: string;
  sessionId: string;
  kind: CheckpointKind;
  /** The shadow repository's commit and tree of this checkpoint (40 hex chars each). */
  commit: string;
  tree: string;
  /** ISO 8601. */
  createdAt: string;
}

/** A checkpoint just taken: what a session records (enough to restore it after a restart), and what it left out. */
export interface Checkpoint extends CheckpointInfo {
  /** Files the checkpoint holds. */
  files: number;
  /** Files present but left out (relative paths; each list capped at 100 names). */
  skipped: SkippedFiles;
}

export interface SkippedFiles {
  /** Larger than `maxFileBytes`. */
  oversized: string[];
  /** Folders holding their own git repository (git cannot look inside them from the shadow repository). */
  nestedRepos: string[];
  /** Files git could not read (permissions, turned into a folder mid-scan, a name that is not UTF-8...). */
  unreadable: string[];
}

/** A checkpoint named by id, or by id and the commit the session recorded (tells "pruned" from "unknown"). */
export type CheckpointRef = string | { checkpointId: string; commit?: string };

export type FileStatus = "added" | "modified" | "deleted";

export interface DiffFile {
  path: string;
  status: FileStatus;
  /** Lines added / removed; 0 for binary files and for mode-only changes. */
  additions: number;
  deletions: number;
  /** Set when git sees the file as binary (the patch then names it without a text diff). */
  binary?: true;
}

export interface CheckpointDiff {
  /** Sorted by path. */
  files: DiffFile[];
  /** Unified diff (`a/` and `b/` prefixes), cut at `maxPatchBytes` on a line boundary. */
  patch: string;
  truncated: boolean;
}

export interface RestoreOptions {
  /** The session whose index the undo checkpoint reuses. */
  sessionId: string;
  /** Restore only these files or folders (relative to the cwd, or absolute inside it). */
  paths?: string[];
  signal?: AbortSignal;
}

export interface RestoreResult {
  /** Files written back (created or overwritten), relative to the cwd, sorted. */
  restored: string[];
  /** Files removed because the checkpoint did not have them, sorted. */
  deleted: string[];
  /** Files the checkpoint has that the restore left alone, with why. */
  skipped: Array<{ path: string; reason: string }>;
  /** Files the restore tried and failed to put back (the undo checkpoint still brings back the state before). */
  failed: Array<{ path: string; error: string }>;
  /** The checkpoint of the state just before the restore: restoring it undoes the restore. */
  undoCheckpointId: string;
  undoCheckpoint: Checkpoint;
}

export interface PruneResult {
  /** Checkpoint ids whose refs were removed. */
  removed: string[];
  /** Set when another process was pruning this folder's checkpoints (nothing done). */
  busy?: true;
}

export type CheckpointStatus = { enabled: true } | { enabled: false; reason: string };

export const CHECKPOINT_DEFAULTS = {
  maxFileBytes: 10 * 1024 * 1024,
  maxFiles: 50_000,
  retentionDays: 14,
  maxPatchBytes: 1024 * 1024,
  gitTimeoutMs: 120_000,
} as const;
