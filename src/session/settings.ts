// The settings the session reads. The CLI loads and validates the files; the session only
// receives this shape and keeps a per-process copy (RPC setters never write files).
import type { InterruptMode } from "../agent/types.js";
import type { ThinkingLevel } from "../shared/types.js";
import type { QueueMode } from "./queues.js";

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
  retry: { enabled: boolean; maxRetries: number; baseDelayMs: number; maxDelayMs: number };
  todo: { enabled: boolean; reminders: boolean; remindersMax: number; eager: boolean; clearDelaySeconds: number };
  ttsr: { enabled: boolean };
  /** Extra environment for bash commands. */
  bashEnvironment: Record<string, string>;
  shellPath?: string;
}

export function defaultSessionSettings(): SessionSettings {
  return {
    steeringMode: "one-at-a-time",
    followUpMode: "one-at-a-time",
    interruptMode: "wait",
    compaction: {
      enabled: true,
      strategy: "context-full",
      reserveTokens: 16384,
      keepRecentTokens: 20000,
      thresholdPercent: -1,
      thresholdTokens: -1,
      autoContinue: true,
    },
    retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60000 },
    todo: { enabled: true, reminders: true, remindersMax: 3, eager: false, clearDelaySeconds: 60 },
    ttsr: { enabled: true },
    bashEnvironment: {},
  };
}
