// The events an extension can subscribe to and what their handlers may return.
import type {
  AgentEvent,
  AgentMessage,
  AgentToolResult,
  BashExecutionMessage,
  CompactionResult,
  CustomMessage,
  ImageContent,
  Model,
  SessionEvent,
  ThinkingLevel,
  UserContent,
} from "../shared/types.js";
import type { PiSessionEntry } from "./session-view.js";

export type SwitchReason = "new" | "resume" | "fork";
export type CompactReason = "manual" | "threshold" | "overflow";

/**
 * pi's session events. After new / switch / fork the extensions hear `session_shutdown` then
 * `session_start` (pi 0.87's lifecycle; the older `session_switch` / `session_branch` are gone).
 */
export type SessionLifecycleEvent =
  | { type: "session_start"; reason: "startup" | "reload" | SwitchReason; previousSessionFile?: string }
  | { type: "session_info_changed"; name: string | undefined }
  | { type: "session_before_switch"; reason: "new" | "resume"; targetSessionFile?: string }
  | { type: "session_before_fork"; entryId: string; position: "before" | "at" }
  | {
      type: "session_before_compact";
      preparation: PiCompactionPreparation;
      branchEntries: PiSessionEntry[];
      customInstructions?: string;
      reason: CompactReason;
      willRetry: boolean;
      signal: AbortSignal;
    }
  | { type: "session_compact"; compactionEntry: PiSessionEntry; fromExtension: boolean; reason: CompactReason; willRetry: boolean }
  | { type: "session_compact_failed"; reason: CompactReason; errorMessage?: string; aborted: boolean; willRetry: boolean; fromExtension: boolean }
  | { type: "session_shutdown"; reason: "quit" | "reload" | SwitchReason; targetSessionFile?: string }
  | { type: "session_before_tree"; preparation: TreePreparation; signal: AbortSignal }
  | { type: "session_tree"; newLeafId: string | null; oldLeafId: string | null; summaryEntry?: unknown; fromExtension?: boolean }
  | { type: "resources_discover"; cwd: string; reason: "startup" | "reload" }
  | { type: "model_select"; model: Model; previousModel: Model | undefined; source: "set" | "cycle" | "restore" }
  | { type: "thinking_level_select"; level: ThinkingLevel; previousLevel: ThinkingLevel };

/** What a compaction is about to summarise (pi's CompactionPreparation). */
export interface PiCompactionPreparation {
  /** The first entry kept verbatim. */
  firstKeptEntryId: string;
  messagesToSummarize: AgentMessage[];
  /** A split turn's messages before the cut, summarised separately. */
  turnPrefixMessages: AgentMessage[];
  isSplitTurn: boolean;
  tokensBefore: number;
  previousSummary?: string;
  fileOps: { read: Set<string>; written: Set<string>; edited: Set<string> };
  settings: { enabled: boolean; reserveTokens: number; keepRecentTokens: number };
}

export interface TreePreparation {
  targetId: string;
  oldLeafId: string | null;
  commonAncestorId: string | null;
  entriesToSummarize: unknown[];
  userWantsSummary: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}

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
  /** The parts the base system prompt was built from (pith builds it from these; changes are not read back). */
  systemPromptOptions: { cwd: string; selectedTools?: string[] };
}
export interface InputEvent {
  type: "input";
  text: string;
  images?: ImageContent[];
  source: "interactive" | "rpc" | "extension";
  streamingBehavior?: "steer" | "followUp";
}
export interface UserBashEvent {
  type: "user_bash";
  command: string;
  excludeFromContext: boolean;
  cwd: string;
}

// ── boundaries: where extensions may add entries and ask for one more model request ──

/** An entry an `agent_before_settle` handler asks to add (pith writes `custom` and `custom_message` drafts). */
export type BoundaryDraft =
  | { type: "custom"; customType: string; data?: unknown }
  | { type: "custom_message"; customType: string; content: string | UserContent[]; display: boolean; details?: unknown }
  | { type: "context_edit"; targetId: string; replacement: unknown }
  | { type: "compaction"; summary: string; firstKeptEntryId: string | null; details?: unknown };

/** The context as it would be with the drafts so far (pi's BoundaryContextPreview). */
export interface BoundaryContext {
  contextEntries: PiSessionEntry[];
  contextMessages: AgentMessage[];
  llmMessages: unknown[];
  pendingMessages: AgentMessage[];
  /** Whether one more model request has something to answer (the context does not end with the model's reply). */
  canContinue: boolean;
}

/** pi's `agent_before_settle`: the run is over and nothing else follows; handlers may add entries and ask to continue. */
export interface AgentBeforeSettleEvent {
  type: "agent_before_settle";
  outcome: "completed" | "aborted" | "error";
  entries: BoundaryDraft[];
  continue: boolean;
  context: BoundaryContext;
}
export interface BoundaryResult {
  entries?: BoundaryDraft[];
  continue?: boolean;
}

/** A dialog started or stopped waiting for the user (pi's UIPromptStartEvent / UIPromptEndEvent). */
interface UiPromptFields {
  reason: "ui_prompt";
  kind: "select" | "confirm" | "input" | "editor" | "custom";
  title?: string;
}
export type UiPromptEvent = ({ type: "ui_prompt_start" } & UiPromptFields) | ({ type: "ui_prompt_end" } & UiPromptFields);

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
  | AgentBeforeSettleEvent
  | UiPromptEvent
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
export interface MessageEndEventResult {
  /** Replaces the finished message (same role) before it is recorded and sent to the host. */
  message?: AgentMessage;
}
export interface CancelResult {
  cancel?: boolean;
}
/** `session_before_tree`: cancel, or give the summary of the branch left behind yourself. */
export interface SessionBeforeTreeResult extends CancelResult {
  summary?: { summary: string; details?: unknown };
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
/** pi's BashOperations: how a `user_bash` handler runs the command elsewhere (a container, a remote machine). */
export interface BashOperations {
  exec(
    command: string,
    cwd: string,
    options: { onData: (data: Buffer) => void; signal?: AbortSignal; timeout?: number; env?: Record<string, string | undefined> },
  ): Promise<{ exitCode: number | null }>;
}
/** `remember`: save the decision for the folder (PITH_HOME/trust.json). */
export interface ProjectTrustEventResult {
  trusted: "yes" | "no" | "undecided";
  remember?: boolean;
}
/** `result`: the extension ran the command itself; `operations`: pith runs it through them. */
export interface UserBashEventResult {
  result?: BashExecutionMessage | Record<string, unknown>;
  operations?: BashOperations;
}

export type { AgentToolResult };
