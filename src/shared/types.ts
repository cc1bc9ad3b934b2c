// The vocabulary every layer shares: content blocks, messages, usage, models, events.
// The TypeBox schemas in ./schema/ are the source (what goes on the
// wire); the types here are their static twins, plus the few helpers every layer uses.
// The schema imports are type-only: loading this module (lazily loaded chunks do) builds no
// schema.
import type { Static } from "typebox";
import type {
  AgentEventSchema,
  AgentMessageSchema,
  AgentSessionEventSchema,
  AgentToolResultSchema,
  AssistantContentSchema,
  AssistantMessageSchema,
  AssistantUpdateEventSchema,
  AttributionSchema,
  BashExecutionMessageSchema,
  BranchSummaryMessageSchema,
  CompactionResultSchema,
  CompactionSummaryMessageSchema,
  CostSchema,
  CustomMessageSchema,
  DeveloperMessageSchema,
  EffortSchema,
  ImageContentSchema,
  ModelCostSchema,
  ModelSchema,
  RedactedThinkingContentSchema,
  SessionEventSchema,
  StopReasonSchema,
  TextContentSchema,
  ThinkingContentSchema,
  ThinkingLevelInputSchema,
  ThinkingLevelSchema,
  TodoItemSchema,
  TodoPhaseSchema,
  TodoStatusSchema,
  ToolCallSchema,
  ToolResultMessageSchema,
  TruncationMetaSchema,
  TtsrRuleSchema,
  UsageSchema,
  UserContentSchema,
  UserMessageSchema,
} from "./schema/index.js";

export type { ModelApi } from "./schema/model.js";

// ── content blocks ─────────────────────────────────────────────────────

export type TextContent = Static<typeof TextContentSchema>;
export type ThinkingContent = Static<typeof ThinkingContentSchema>;
export type RedactedThinkingContent = Static<typeof RedactedThinkingContentSchema>;
/** `data` is base64, no `data:` prefix. */
export type ImageContent = Static<typeof ImageContentSchema>;
export type ToolCall = Static<typeof ToolCallSchema>;
export type UserContent = Static<typeof UserContentSchema>;
export type AssistantContent = Static<typeof AssistantContentSchema>;

// ── usage ──────────────────────────────────────────────────────────────

export type Cost = Static<typeof CostSchema>;
export type Usage = Static<typeof UsageSchema>;
export type StopReason = Static<typeof StopReasonSchema>;

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

// ── models and thinking ──────────────────────────────────────────

export type Effort = Static<typeof EffortSchema>;
export type ThinkingLevel = Static<typeof ThinkingLevelSchema>;
/** What a host may send; `inherit` resolves to "unset". */
export type ThinkingLevelInput = Static<typeof ThinkingLevelInputSchema>;
/** The reasoning efforts, weakest first: `EffortSchema`'s values (types.test.ts checks). */
export const EFFORTS: readonly Effort[] = ["minimal", "low", "medium", "high", "xhigh"];

/** USD per million tokens. */
export type ModelCost = Static<typeof ModelCostSchema>;
export type Model = Static<typeof ModelSchema>;

// ── messages ─────────────────────────────────────────────────────────────

export type Attribution = Static<typeof AttributionSchema>;
export type UserMessage = Static<typeof UserMessageSchema>;
export type DeveloperMessage = Static<typeof DeveloperMessageSchema>;
export type AssistantMessage = Static<typeof AssistantMessageSchema>;
export type ToolResultMessage = Static<typeof ToolResultMessageSchema>;
export type TruncationMeta = Static<typeof TruncationMetaSchema>;
export type BashExecutionMessage = Static<typeof BashExecutionMessageSchema>;
export type CustomMessage = Static<typeof CustomMessageSchema>;
export type BranchSummaryMessage = Static<typeof BranchSummaryMessageSchema>;
export type CompactionSummaryMessage = Static<typeof CompactionSummaryMessageSchema>;
export type AgentMessage = Static<typeof AgentMessageSchema>;

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

// ── tool results, todos, compaction, stream rules ─────────────────

export type AgentToolResult = Static<typeof AgentToolResultSchema>;
export type TodoStatus = Static<typeof TodoStatusSchema>;
export type TodoItem = Static<typeof TodoItemSchema>;
export type TodoPhase = Static<typeof TodoPhaseSchema>;
export type CompactionResult = Static<typeof CompactionResultSchema>;
export type TtsrRule = Static<typeof TtsrRuleSchema>;

// ── assistant stream events ────────────────────────────────────────────

/** The nine subtypes that may appear inside `message_update`. */
export type AssistantUpdateEvent = Static<typeof AssistantUpdateEventSchema>;

/** A provider stream: `start`, the update events, then exactly one `done` or `error`. */
export type AssistantMessageEvent =
  | { type: "start"; partial: AssistantMessage }
  | AssistantUpdateEvent
  | { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage }
  | { type: "error"; reason: "aborted" | "error"; error: AssistantMessage };

// ── agent and session events ─────────────────────────────────────

export type AgentEvent = Static<typeof AgentEventSchema>;
export type SessionEvent = Static<typeof SessionEventSchema>;
export type AgentSessionEvent = Static<typeof AgentSessionEventSchema>;
