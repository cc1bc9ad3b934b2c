// The vocabulary every layer shares: content blocks, messages, usage, models, events.
// Shapes follow spec/protocol.md §4–§6 exactly; they are what goes on the wire.

// ── content blocks (§4.1) ─────────────────────────────────────────────────────

export interface TextContent {
  type: "text";
  text: string;
  textSignature?: string;
}
export interface ThinkingContent {
  type: "thinking";
  thinking: string;
  thinkingSignature?: string;
}
export interface RedactedThinkingContent {
  type: "redactedThinking";
  data: string;
}
export interface ImageContent {
  type: "image";
  /** base64, no `data:` prefix */
  data: string;
  mimeType: string;
}
export interface ToolCall {
  type: "toolCall";
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  thoughtSignature?: string;
  intent?: string;
}

export type UserContent = TextContent | ImageContent;
export type AssistantContent = TextContent | ThinkingContent | RedactedThinkingContent | ToolCall;

// ── usage (§4.2) ──────────────────────────────────────────────────────────────

export interface Cost {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  total: number;
}
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  premiumRequests?: number;
  cost: Cost;
}
export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export function emptyUsage(): Usage {
  return {
    input: 0,
    output: 0,
    cacheRead: 0,
    cacheWrite: 0,
    totalTokens: 0,
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
  };
}

/** An assistant message with no content yet: the placeholder `message_start` announces. */
export function emptyAssistantMessage(
  model: { api: string; provider: string; id: string },
  timestamp: number = Date.now(),
  stopReason: StopReason = "stop",
): AssistantMessage {
  return { role: "assistant", content: [], api: model.api, provider: model.provider, model: model.id, usage: emptyUsage(), stopReason, timestamp };
}

// ── models and thinking (§4.3, §4.4) ──────────────────────────────────────────

export type Effort = "minimal" | "low" | "medium" | "high" | "xhigh";
export type ThinkingLevel = "off" | Effort;
/** What a host may send; `inherit` resolves to "unset". */
export type ThinkingLevelInput = ThinkingLevel | "inherit";
export const EFFORTS: readonly Effort[] = ["minimal", "low", "medium", "high", "xhigh"];

export type ModelApi =
  | "anthropic-messages"
  | "openai-completions"
  | "openai-responses"
  | "google-generative-ai"
  | "scripted"
  | (string & {});

export interface ModelCost {
  /** USD per million tokens */
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export interface Model {
  id: string;
  name: string;
  api: ModelApi;
  provider: string;
  baseUrl: string;
  reasoning: boolean;
  input: ("text" | "image")[];
  cost: ModelCost;
  contextWindow: number;
  maxTokens: number;
  headers?: Record<string, string>;
  thinking?: {
    minLevel: Effort;
    maxLevel: Effort;
    mode: "effort" | "budget" | "google-level" | "anthropic-adaptive" | "anthropic-budget-effort";
  };
  compat?: Record<string, unknown>;
}

// ── messages (§5) ─────────────────────────────────────────────────────────────

export type Attribution = "user" | "agent";

export interface UserMessage {
  role: "user";
  content: string | UserContent[];
  synthetic?: boolean;
  attribution?: Attribution;
  providerPayload?: Record<string, unknown>;
  timestamp: number;
}
export interface DeveloperMessage {
  role: "developer";
  content: string | UserContent[];
  attribution?: Attribution;
  providerPayload?: Record<string, unknown>;
  timestamp: number;
}
export interface AssistantMessage {
  role: "assistant";
  content: AssistantContent[];
  api: string;
  provider: string;
  model: string;
  responseId?: string;
  usage: Usage;
  stopReason: StopReason;
  errorMessage?: string;
  /** Opaque provider state needed to replay this message (e.g. reasoning item ids). */
  providerPayload?: Record<string, unknown>;
  timestamp: number;
  duration?: number;
  ttft?: number;
}
export interface ToolResultMessage {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: UserContent[];
  details?: unknown;
  isError: boolean;
  isWarning?: boolean;
  attribution?: Attribution;
  prunedAt?: number;
  timestamp: number;
}
export interface TruncationMeta {
  direction: "head" | "tail";
  truncatedBy: "lines" | "bytes";
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  maxBytes?: number;
  /** pith extra: where the full output was saved */
  fullOutputPath?: string;
}
export interface BashExecutionMessage {
  role: "bashExecution";
  command: string;
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  meta?: { truncation?: TruncationMeta };
  timestamp: number;
  excludeFromContext?: boolean;
}
export interface CustomMessage {
  role: "custom";
  customType: string;
  content: string | UserContent[];
  display: boolean;
  details?: unknown;
  attribution?: Attribution;
  timestamp: number;
}
export interface BranchSummaryMessage {
  role: "branchSummary";
  summary: string;
  fromId: string;
  timestamp: number;
}
export interface CompactionSummaryMessage {
  role: "compactionSummary";
  summary: string;
  shortSummary?: string;
  tokensBefore: number;
  timestamp: number;
}

export type AgentMessage =
  | UserMessage
  | DeveloperMessage
  | AssistantMessage
  | ToolResultMessage
  | BashExecutionMessage
  | CustomMessage
  | BranchSummaryMessage
  | CompactionSummaryMessage;

/** The last assistant message in `messages`, if any. */
export function lastAssistant(messages: readonly AgentMessage[]): AssistantMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role === "assistant") return m;
  }
  return undefined;
}

/** What the provider layer accepts: the LLM-facing projection of AgentMessage. */
export type LlmMessage = UserMessage | DeveloperMessage | AssistantMessage | ToolResultMessage;

// ── tool results (§4.9) ───────────────────────────────────────────────────────

export interface AgentToolResult {
  content: UserContent[];
  details?: unknown;
  isWarning?: boolean;
}

// ── todos (§4.5) ──────────────────────────────────────────────────────────────

export type TodoStatus = "pending" | "in_progress" | "completed" | "abandoned";
export interface TodoItem {
  id: string;
  content: string;
  status: TodoStatus;
  notes?: string;
  details?: string;
}
export interface TodoPhase {
  id: string;
  name: string;
  tasks: TodoItem[];
}

// ── assistant stream events (§6.3) ────────────────────────────────────────────

export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | { type: "text_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
  | { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
  | { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
  | { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
  | { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage }
  | { type: "error"; reason: "aborted" | "error"; error: AssistantMessage };

/** The nine subtypes that may appear inside `message_update`. */
export type AssistantUpdateEvent = Exclude<AssistantMessageEvent, { type: "start" | "done" | "error" }>;

// ── agent events (§6.1) ───────────────────────────────────────────────────────

export type AgentEvent =
  | { type: "agent_start" }
  | { type: "agent_end"; messages: AgentMessage[] }
  | { type: "turn_start" }
  | { type: "turn_end"; message: AssistantMessage; toolResults: ToolResultMessage[] }
  | { type: "message_start"; message: AgentMessage }
  | { type: "message_update"; message: AssistantMessage; assistantMessageEvent: AssistantUpdateEvent }
  | { type: "message_end"; message: AgentMessage }
  | { type: "tool_execution_start"; toolCallId: string; toolName: string; args: Record<string, unknown>; intent?: string }
  | {
      type: "tool_execution_update";
      toolCallId: string;
      toolName: string;
      args: Record<string, unknown>;
      partialResult: AgentToolResult;
    }
  | {
      type: "tool_execution_end";
      toolCallId: string;
      toolName: string;
      result: AgentToolResult;
      isError: boolean;
      isWarning?: boolean;
    };

export interface CompactionResult {
  summary: string;
  shortSummary?: string;
  firstKeptEntryId: string;
  tokensBefore: number;
  details?: unknown;
  preserveData?: Record<string, unknown>;
}

export interface TtsrRule {
  name: string;
  path: string;
  content: string;
  globs?: string[];
  alwaysApply?: boolean;
  description?: string;
  condition?: string[];
  scope?: string[];
  interruptMode?: "never" | "prose-only" | "tool-only" | "always";
  _source: { provider: string; providerName: string; path: string; level: "user" | "project" | "native" };
}

export type SessionEvent =
  | { type: "auto_compaction_start"; reason: "threshold" | "overflow" | "idle"; action: "context-full" | "handoff" }
  | {
      type: "auto_compaction_end";
      action: "context-full" | "handoff";
      result?: CompactionResult;
      aborted: boolean;
      willRetry: boolean;
      errorMessage?: string;
      skipped?: boolean;
    }
  | { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
  | { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string }
  | { type: "ttsr_triggered"; rules: TtsrRule[] }
  | {
      type: "todo_reminder";
      todos: Array<{ id: string; content: string; status: "pending" | "in_progress" }>;
      attempt: number;
      maxAttempts: number;
    }
  | { type: "todo_auto_clear" };

export type AgentSessionEvent = AgentEvent | SessionEvent;
