// The on-disk vocabulary of a session file: one header line, then entries.
import type { AgentMessage, Attribution, CompactionResult, CustomMessage, ThinkingLevel, UserContent } from "../shared/types.js";

/**
 * The header version pith writes: 3, the current version of the shared format,
 * so pi/xcsh readers do not re-chain pith's entries as v1. Older files are upgraded in memory
 * by `migrate()`.
 */
export const PITH_SESSION_VERSION = 3;

/** Line 1 of every session file. */
export interface SessionHeader {
  type: "session";
  version: number;
  /** Snowflake (pith) or UUID (pi). */
  id: string;
  /** ISO creation time. */
  timestamp: string;
  cwd: string;
  /** Opaque lineage: the parent session's path (new_session, branch, clone). */
  parentSession?: string;
  /** Display name as of creation (copied by clone); later names live in `session_info` entries. */
  name?: string;
}

export interface EntryBase {
  id: string;
  parentId: string | null;
  /** ISO append time. */
  timestamp: string;
}

/** Every persisted message except role `custom` (→ custom_message) and the two derived summary roles. */
export interface MessageEntry extends EntryBase {
  type: "message";
  message: AgentMessage;
}
export interface ModelChangeEntry extends EntryBase {
  type: "model_change";
  provider: string;
  modelId: string;
}
export interface ThinkingLevelChangeEntry extends EntryBase {
  type: "thinking_level_change";
  /** `null`: no reasoning / unsupported (read as "off"). */
  thinkingLevel: ThinkingLevel | null;
}
/** A compaction as recorded: the CompactionResult the host saw, plus where it came from. */
export interface CompactionEntry extends EntryBase, CompactionResult {
  type: "compaction";
  fromExtension?: boolean;
}
export interface BranchSummaryEntry extends EntryBase {
  type: "branch_summary";
  /** Entry id or the literal "root". */
  fromId: string;
  summary: string;
  details?: unknown;
  fromExtension?: boolean;
}
export interface LabelEntry extends EntryBase {
  type: "label";
  targetId: string;
  /** Undefined or empty clears the label. */
  label?: string;
}
export interface SessionInfoEntry extends EntryBase {
  type: "session_info";
  name?: string;
}
/** Extension state; never enters the LLM context. */
export interface CustomEntry extends EntryBase {
  type: "custom";
  customType: string;
  data?: unknown;
}
/** A `custom`-role message; enters the context as a custom message. */
export interface CustomMessageEntry extends EntryBase {
  type: "custom_message";
  customType: string;
  content: string | UserContent[];
  display: boolean;
  details?: unknown;
  attribution?: Attribution;
}

/** xcsh: how a subagent session was started; never enters the LLM context. */
export interface SessionInitEntry extends EntryBase {
  type: "session_init";
  systemPrompt: string;
  task: string;
  tools: string[];
  outputSchema?: unknown;
}

export type SessionEntry =
  | SessionInitEntry
  | MessageEntry
  | ModelChangeEntry
  | ThinkingLevelChangeEntry
  | CompactionEntry
  | BranchSummaryEntry
  | LabelEntry
  | SessionInfoEntry
  | CustomEntry
  | CustomMessageEntry;

/** Short alias. */
export type Entry = SessionEntry;
export type SessionEntryType = SessionEntry["type"];

/** An entry as the caller describes it; the store fills in id, parentId and timestamp. */
export type NewEntry = SessionEntry extends infer E ? (E extends SessionEntry ? Omit<E, keyof EntryBase> : never) : never;

/** Compaction fields the caller supplies. */
export type CompactionInput = Omit<CompactionEntry, keyof EntryBase | "type">;
/** Branch-summary fields the caller supplies. */
export type BranchSummaryInput = Omit<BranchSummaryEntry, keyof EntryBase | "type">;

export const KNOWN_ENTRY_TYPES: ReadonlySet<string> = new Set<SessionEntryType>([
  "message",
  "model_change",
  "thinking_level_change",
  "compaction",
  "branch_summary",
  "label",
  "session_info",
  "custom",
  "custom_message",
  "session_init",
]);

/** The `custom` message a custom_message entry stands for. */
export function customMessageOf(entry: CustomMessageEntry): CustomMessage {
  const msg: CustomMessage = {
    role: "custom",
    customType: entry.customType,
    content: entry.content,
    display: entry.display,
    timestamp: Date.parse(entry.timestamp) || 0,
  };
  if (entry.details !== undefined) msg.details = entry.details;
  if (entry.attribution !== undefined) msg.attribution = entry.attribution;
  return msg;
}
