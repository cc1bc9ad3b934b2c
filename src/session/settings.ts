// The settings the session reads. The CLI loads and validates the files (and owns the
// defaults); the session only receives this shape and keeps a per-process copy (RPC setters
// never write files).
import type { InterruptMode } from "../agent/types.js";
import type { CacheRetention } from "../providers/types.js";
import type { ThinkingLevel } from "../shared/types.js";
import type { QueueMode } from "./queues.js";
import type { PermissionSettings } from "./session-permissions.js";

export interface SessionSettings {
  defaultThinkingLevel?: ThinkingLevel;
  steeringMode: QueueMode;
  followUpMode: QueueMode;
  interruptMode: InterruptMode;
  compaction: {
    enabled: boolean;
    strategy: "context-full" | "off";
    reserveTokens: number;
    keepRecentTokens: number;
    thresholdPercent: number;
    thresholdTokens: number;
    autoContinue: boolean;
  };
  retry: {
    enabled: boolean;
    maxRetries: number;
    baseDelayMs: number;
    maxDelayMs: number;
    /** A provider request with no data this long after it was sent fails (retryably); 0 = no limit. */
    firstByteTimeoutMs: number;
    /** A reply silent this long between chunks fails (retryably); 0 = no limit. */
    idleTimeoutMs: number;
  };
  todo: { enabled: boolean; reminders: boolean; remindersMax: number; eager: boolean; clearDelaySeconds: number };
  ttsr: {
    enabled: boolean;
    interruptMode: "never" | "prose-only" | "tool-only" | "always";
    repeatMode: "once" | "after-gap";
    repeatGap: number;
    /** `discard` drops an interrupted reply from the live context; `keep` leaves it. */
    contextMode: "discard" | "keep";
  };
  /** Tools offered through `call_tool` instead of their own definition (`prefix*` matches a prefix). */
  deferredTools?: readonly string[];
  /** Extra environment for bash commands. */
  bashEnvironment: Record<string, string>;
  shellPath?: string;
  /** The `permissions` setting; absent: mode "allow", no rules. */
  permissions?: PermissionSettings;
  /** File checkpoints; absent: off. */
  fileCheckpoints?: FileCheckpointSettings;
  /** Prompt caching sent with every model request; unset means "short". */
  cacheRetention?: CacheRetention;
}

/**
 * New settings into the session's own object (collaborators hold it), except what the host sets by
 * command (queue and interrupt modes, the auto-compaction and auto-retry switches) and the file
 * checkpoints, which start with the session.
 */
export function takeNewSettings(s: SessionSettings, next: SessionSettings): void {
  const { steeringMode, followUpMode, interruptMode, fileCheckpoints } = s;
  const switches = { compaction: s.compaction.enabled, retry: s.retry.enabled };
  Object.assign(s, structuredClone(next), { steeringMode, followUpMode, interruptMode, fileCheckpoints });
  s.compaction.enabled = switches.compaction;
  s.retry.enabled = switches.retry;
}

/** `fileCheckpoints.*`: a checkpoint of the cwd per user message, in a shadow git repository. */
export interface FileCheckpointSettings {
  enabled: boolean;
  /** Files larger than this many bytes are left out. */
  maxFileBytes: number;
  /** A folder with more files than this is not checkpointed (one notice). */
  maxFiles: number;
  /** Checkpoints older than this many days are pruned. */
  retentionDays: number;
}
