// The events an extension can subscribe to (engine.md §11.3) and what their handlers may return.
import type {
  AgentEvent,
  AgentMessage,
  AgentToolResult,
  BashExecutionMessage,
  CompactionResult,
  CustomMessage,
  ImageContent,
  SessionEvent,
  UserContent,
} from "../shared/types.js";

export type SwitchReason = "new" | "resume" | "fork";

export type SessionLifecycleEvent =
  | { type: "session_start" }
  | { type: "session_before_switch"; reason: SwitchReason; targetSessionFile?: string }
  | { type: "session_switch"; reason: SwitchReason; previousSessionFile?: string }
  | { type: "session_before_branch"; entryId: string }
  | { type: "session_branch"; previousSessionFile?: string }
  | {
      type: "session_before_compact";
      preparation: unknown;
      branchEntries: unknown[];
      customInstructions?: string;
      signal: AbortSignal;
    }
  | { type: "session_compact"; compactionEntry: unknown; fromExtension: boolean }
  | { type: "session_shutdown" };

export interface ToolCallEvent {
  type: "tool_call";
  toolName: string;
  toolCallId: string;
  input: Record<string, unknown>;
}
export interface ToolResultEvent {
  type: "tool_result";
  toolName: string;
  toolCallId: string;
  input: Record<string, unknown>;
  content: UserContent[];
  details: unknown;
  isError: boolean;
}
export interface ContextEvent {
  type: "context";
  messages: AgentMessage[];
}
export interface BeforeAgentStartEvent {
  type: "before_agent_start";
  prompt: string;
  images?: ImageContent[];
  systemPrompt: string;
}
export interface InputEvent {
  type: "input";
  text: string;
  images?: ImageContent[];
  source: "interactive" | "rpc" | "extension";
}
export interface UserBashEvent {
  type: "user_bash";
  command: string;
  excludeFromContext: boolean;
  cwd: string;
}

/**
 * pi's `project_trust`: asked of user-level and `-e` extensions when the working folder holds a
 * project layer nobody has decided about; the first "yes" or "no" decides.
 */
export interface ProjectTrustEvent {
  type: "project_trust";
  cwd: string;
}

/** Agent events as extensions see them: turns carry their index within the run. */
export type ExtensionAgentEvent =
  | Exclude<AgentEvent, { type: "turn_start" | "turn_end" }>
  | { type: "turn_start"; turnIndex?: number; timestamp?: number }
  | (Extract<AgentEvent, { type: "turn_end" }> & { turnIndex?: number });

export type ExtensionEvent =
  | SessionLifecycleEvent
  | ExtensionAgentEvent
  | SessionEvent
  | ToolCallEvent
  | ToolResultEvent
  | ContextEvent
  | BeforeAgentStartEvent
  | InputEvent
  | UserBashEvent
  | ProjectTrustEvent;

export type ExtensionEventType = ExtensionEvent["type"];

// ── handler results ───────────────────────────────────────────────────────────

export interface ToolCallEventResult {
  block?: boolean;
  reason?: string;
}
export interface ToolResultEventResult {
  content?: UserContent[];
  details?: unknown;
  isError?: boolean;
}
export interface ContextEventResult {
  messages?: AgentMessage[];
}
export type CustomMessageInput = Pick<CustomMessage, "customType" | "content" | "display" | "details">;
export interface BeforeAgentStartEventResult {
  message?: CustomMessageInput;
  systemPrompt?: string;
}
/** What the runner hands back for `before_agent_start`: every message, the chained prompt. */
export interface BeforeAgentStartOutcome {
  messages: CustomMessageInput[];
  systemPrompt?: string;
}
export interface CancelResult {
  cancel?: boolean;
}
export interface SessionBeforeCompactResult extends CancelResult {
  compaction?: CompactionResult;
}
/** pi's `{action}` form and the older `{handled}` / `{text, images}` form are both accepted. */
export type InputEventResult =
  | { action: "continue" }
  | { action: "transform"; text: string; images?: ImageContent[] }
  | { action: "handled" }
  | { handled?: boolean; text?: string; images?: ImageContent[] };
/** What the runner hands back for `input`. */
export interface InputOutcome {
  handled: boolean;
  text: string;
  images?: ImageContent[];
}
/** `remember`: save the decision for the folder (PITH_HOME/trust.json). */
export interface ProjectTrustEventResult {
  trusted: "yes" | "no" | "undecided";
  remember?: boolean;
}
export interface UserBashEventResult {
  result?: BashExecutionMessage | Record<string, unknown>;
}

export type { AgentToolResult };
