// Messages and results the loop makes up itself: placeholders, aborted/error assistant
// messages, and the error results given to tool calls that never ran.
import { ABORT_MESSAGE } from "../shared/abort.js";
import type { AgentMessage, AssistantMessage, Model, ToolCall, ToolResultMessage } from "../shared/types.js";
import { emptyAssistantMessage } from "../shared/types.js";
import type { ToolCallOutcome } from "./types.js";

export const SKIPPED_TEXT = "Skipped due to queued user message.";

type ModelIdentity = Pick<Model, "api" | "provider" | "id">;

/** The empty partial announced by `message_start` when the provider did not announce one. */
export function placeholderAssistant(model: ModelIdentity, timestamp = Date.now()): AssistantMessage {
  return emptyAssistantMessage(model, timestamp);
}

/**
 * The final message of a stream that ended without a terminal event of its own: the last
 * partial (content kept, detached from the provider's object) with the given stop reason.
 */
export function finalFromPartial(
  partial: AssistantMessage,
  stopReason: "aborted" | "error",
  message: string,
): AssistantMessage {
  // Blocks are copied one level deep: the provider may keep mutating its partial.
  const content = partial.content.map((block) => ({ ...block }));
  return { ...partial, content, stopReason, errorMessage: message };
}

export function abortedFromPartial(partial: AssistantMessage): AssistantMessage {
  return finalFromPartial(partial, "aborted", ABORT_MESSAGE);
}

/** What `agent_end` carries when an exception escaped the loop. */
export function exceptionAssistant(model: ModelIdentity, aborted: boolean, message: string): AssistantMessage {
  return {
    ...placeholderAssistant(model),
    content: [{ type: "text", text: "" }],
    stopReason: aborted ? "aborted" : "error",
    errorMessage: message,
  };
}

export function toolCallsOf(message: AssistantMessage): ToolCall[] {
  return message.content.filter((c): c is ToolCall => c.type === "toolCall");
}

/** An `isError` outcome carrying one text block (synthetic results have `details: {}`). */
export function errorOutcome(text: string): ToolCallOutcome {
  return { isError: true, result: { content: [{ type: "text", text }], details: {} } };
}

/** The result text for tool calls of an aborted or failed assistant message. */
export function failedCallText(stopReason: "aborted" | "error", errorMessage: string | undefined): string {
  const sentence = stopReason === "aborted" ? "Tool execution was aborted" : "Tool execution failed due to an error";
  return errorMessage ? `${sentence}: ${errorMessage}` : `${sentence}.`;
}

export function abortedCallText(): string {
  return failedCallText("aborted", ABORT_MESSAGE);
}

/** An error result for a call that has none (it never ran, or its result was lost). */
export function syntheticResult(call: Pick<ToolCall, "id" | "name">, text: string, timestamp = Date.now()): ToolResultMessage {
  return {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: [{ type: "text", text }],
    details: {},
    isError: true,
    isWarning: false,
    timestamp,
  };
}

/**
 * Every tool call of the assistant messages in `scope` (messages of `messages`) gets exactly one
 * result: a call with no result anywhere in `messages` gets `make(call)`, inserted after the
 * results that follow its assistant message. Returns the inserted results; linear in size.
 */
export function insertMissingResults(
  messages: AgentMessage[],
  scope: readonly AgentMessage[],
  make: (call: ToolCall, assistant: AssistantMessage) => ToolResultMessage,
): ToolResultMessage[] {
  const answered = new Set<string>();
  for (const m of messages) if (m.role === "toolResult") answered.add(m.toolCallId);
  const inScope = new Set(scope);
  const out: AgentMessage[] = [];
  const inserted: ToolResultMessage[] = [];
  let pending: ToolResultMessage[] = [];
  const flush = () => {
    out.push(...pending);
    inserted.push(...pending);
    pending = [];
  };
  for (const m of messages) {
    if (m.role !== "toolResult") flush();
    out.push(m);
    if (m.role !== "assistant" || !inScope.has(m)) continue;
    for (const call of toolCallsOf(m)) {
      if (answered.has(call.id)) continue;
      answered.add(call.id);
      pending.push(make(call, m));
    }
  }
  flush();
  if (inserted.length === 0) return inserted;
  messages.length = 0;
  for (const m of out) messages.push(m);
  return inserted;
}
