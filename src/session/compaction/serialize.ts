// A conversation as plain text for the summariser. Sending the history
// as text inside one user message sidesteps every tool-call pairing rule of the providers.
import type { AgentMessage, LlmMessage, UserContent } from "../../shared/types.js";
import { convertToLlm } from "../convert-to-llm.js";

/** Tool results longer than this are cut in the transcript. */
export const TOOL_RESULT_CHAR_LIMIT = 2000;

function contentText(content: string | UserContent[]): string {
  if (typeof content === "string") return content;
  return content.map((c) => (c.type === "text" ? c.text : `[image: ${c.mimeType}]`)).join("\n");
}

function cut(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}\n[... ${text.length - limit} more characters truncated]`;
}

function formatArgs(args: Record<string, unknown>): string {
  return Object.entries(args ?? {})
    .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
    .join(", ");
}

function serializeOne(message: LlmMessage): string[] {
  switch (message.role) {
    case "user":
      return [`[User]: ${contentText(message.content)}`];
    case "developer":
      return [`[Harness]: ${contentText(message.content)}`];
    case "toolResult": {
      const label = message.isError ? "[Tool error]" : "[Tool result]";
      return [`${label} ${message.toolName}: ${cut(contentText(message.content), TOOL_RESULT_CHAR_LIMIT)}`];
    }
    case "assistant": {
      const blocks: string[] = [];
      const thinking = message.content.flatMap((c) => (c.type === "thinking" && c.thinking ? [c.thinking] : []));
      const text = message.content.flatMap((c) => (c.type === "text" && c.text ? [c.text] : []));
      const calls = message.content.flatMap((c) => (c.type === "toolCall" ? [`${c.name}(${formatArgs(c.arguments)})`] : []));
      if (thinking.length > 0) blocks.push(`[Assistant thinking]: ${thinking.join("\n")}`);
      if (text.length > 0) blocks.push(`[Assistant]: ${text.join("\n")}`);
      if (calls.length > 0) blocks.push(`[Assistant tool calls]: ${calls.join("; ")}`);
      if (message.stopReason === "error" || message.stopReason === "aborted") {
        blocks.push(`[Assistant ${message.stopReason}]: ${message.errorMessage ?? "(no message)"}`);
      }
      return blocks;
    }
  }
}

/** The transcript of `messages` (projected like a model call), blocks separated by blank lines. */
export function serializeConversation(messages: AgentMessage[]): string {
  const blocks: string[] = [];
  for (const message of convertToLlm(messages)) blocks.push(...serializeOne(message));
  return blocks.join("\n\n");
}
