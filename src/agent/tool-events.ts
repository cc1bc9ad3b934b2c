// The events of one tool call: start, updates, end + its toolResult message.
import type { ToolCall, ToolResultMessage } from "../shared/types.js";
import { appendMessage, endMessage, type Later, type RunState } from "./run-state.js";
import type { ToolCallOutcome } from "./types.js";

const INTENT_KEY = "_i";

export interface CallArgs {
  /** The arguments without the intent-tracing `_i` key: what the tool receives. */
  args: Record<string, unknown>;
  intent?: string;
}

/** Strips the intent-tracing `_i` property; the tool call block keeps it. */
export function callArgs(call: ToolCall): CallArgs {
  const raw = call.arguments ?? {};
  if (!Object.hasOwn(raw, INTENT_KEY)) return { args: raw };
  const { [INTENT_KEY]: intentValue, ...args } = raw;
  const intent = typeof intentValue === "string" ? intentValue.trim() : "";
  return intent ? { args, intent } : { args };
}

export function emitToolStart(state: RunState, call: ToolCall, view: CallArgs): void {
  state.input.emit({
    type: "tool_execution_start",
    toolCallId: call.id,
    toolName: call.name,
    args: view.args,
    ...(view.intent ? { intent: view.intent } : {}),
  });
}

/**
 * `tool_execution_end` then `message_start`/`message_end` of the toolResult message, which is
 * appended to the context. Synthetic results (never ran, skipped, aborted) omit
 * `isWarning` on the end event, as the reference does.
 */
export function emitToolResult(
  state: RunState,
  call: ToolCall,
  outcome: ToolCallOutcome,
  synthetic: boolean,
): Later<ToolResultMessage> {
  const { result, isError } = outcome;
  const isWarning = result.isWarning ?? false;
  state.input.emit({
    type: "tool_execution_end",
    toolCallId: call.id,
    toolName: call.name,
    result,
    isError,
    ...(synthetic ? {} : { isWarning }),
  });
  const message: ToolResultMessage = {
    role: "toolResult",
    toolCallId: call.id,
    toolName: call.name,
    content: result.content,
    details: result.details,
    isError,
    isWarning,
    timestamp: Date.now(),
  };
  state.input.emit({ type: "message_start", message });
  appendMessage(state, message);
  const pending = endMessage(state, message);
  return pending ? pending.then(() => message) : message;
}

/** A call that never ran: start + end + result message in one go. */
export function emitSyntheticCall(state: RunState, call: ToolCall, outcome: ToolCallOutcome): Later<ToolResultMessage> {
  emitToolStart(state, call, callArgs(call));
  return emitToolResult(state, call, outcome, true);
}
