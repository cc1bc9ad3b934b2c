// Message builders for the unit tests of context projection, compaction and retry.
import type {
  AssistantContent,
  AssistantMessage,
  BashExecutionMessage,
  CustomMessage,
  ToolCall,
  ToolResultMessage,
  Usage,
  UserMessage,
} from "../../src/shared/types.js";
import { emptyUsage } from "../../src/shared/types.js";

let clock = 1_000;
const tick = () => ++clock;

export function user(text: string, timestamp = tick()): UserMessage {
  return { role: "user", content: [{ type: "text", text }], timestamp };
}

export function call(id: string, name = "read", args: Record<string, unknown> = { path: `/f/${id}` }): ToolCall {
  return { type: "toolCall", id, name, arguments: args };
}

export function assistant(content: AssistantContent[] | string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  const blocks: AssistantContent[] = typeof content === "string" ? [{ type: "text", text: content }] : content;
  const hasCalls = blocks.some((b) => b.type === "toolCall");
  return {
    role: "assistant",
    content: blocks,
    api: "scripted",
    provider: "scripted",
    model: "m",
    usage: emptyUsage(),
    stopReason: hasCalls ? "toolUse" : "stop",
    timestamp: tick(),
    ...extra,
  };
}

export function failed(errorMessage: string, extra: Partial<AssistantMessage> = {}): AssistantMessage {
  return assistant([], { stopReason: "error", errorMessage, ...extra });
}

export function usage(input: number, output = 0, cacheRead = 0, cacheWrite = 0): Usage {
  return { ...emptyUsage(), input, output, cacheRead, cacheWrite, totalTokens: input + output + cacheRead + cacheWrite };
}

export function result(toolCallId: string, text = `result of ${toolCallId}`, extra: Partial<ToolResultMessage> = {}): ToolResultMessage {
  return { role: "toolResult", toolCallId, toolName: "read", content: [{ type: "text", text }], isError: false, timestamp: tick(), ...extra };
}

export function custom(text: string, extra: Partial<CustomMessage> = {}): CustomMessage {
  return { role: "custom", customType: "note", content: text, display: true, timestamp: tick(), ...extra };
}

export function bash(command: string, output: string, extra: Partial<BashExecutionMessage> = {}): BashExecutionMessage {
  return { role: "bashExecution", command, output, exitCode: 0, cancelled: false, truncated: false, timestamp: tick(), ...extra };
}
