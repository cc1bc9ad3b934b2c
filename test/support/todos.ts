// Small message builders for the todo tests.
import { emptyUsage, type AssistantMessage, type StopReason, type ToolResultMessage } from "../../src/shared/types.js";

export function assistant(text: string, stopReason: StopReason = "stop", toolCall = false): AssistantMessage {
  const content: AssistantMessage["content"] = [{ type: "text", text }];
  if (toolCall) content.push({ type: "toolCall", id: "call-1", name: "read", arguments: {} });
  return { role: "assistant", content, api: "scripted", provider: "scripted", model: "m", usage: emptyUsage(), stopReason, timestamp: 1 };
}

export function todoResult(details: unknown, isError = false, toolName = "todo_write"): ToolResultMessage {
  return { role: "toolResult", toolCallId: "c", toolName, content: [{ type: "text", text: "ok" }], details, isError, timestamp: 1 };
}
