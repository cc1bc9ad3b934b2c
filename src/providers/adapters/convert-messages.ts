// LlmContext → AI SDK LanguageModelV3 prompt and tools. Provider quirks (signature replay,
// tool-call id rules) come in through the codec and options; nothing here names a provider.
import type {
  JSONSchema7,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ToolChoice,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import type { AssistantMessage, LlmMessage, Model, ToolResultMessage, UserContent } from "../../shared/types.js";
import type { LlmContext, LlmTool, ToolChoice } from "../types.js";
import type { ReplayCodec } from "./replay.js";

export interface ConvertOptions {
  codec: ReplayCodec;
  /** Rewrites tool-call ids into a form the target API accepts (applied to calls and results alike). */
  normalizeToolCallId?: (id: string) => string;
}

type AssistantPart = Extract<LanguageModelV3Message, { role: "assistant" }>["content"][number];
type UserPart = Extract<LanguageModelV3Message, { role: "user" }>["content"][number];
type ToolResultPart = Extract<LanguageModelV3Message, { role: "tool" }>["content"][number];

export const INTERRUPTED_TOOL_RESULT = "Tool execution was interrupted: no result was recorded for this call.";
const IMAGE_UNSUPPORTED = "(image omitted: this model does not accept images)";

/** Anthropic-style ids: [A-Za-z0-9_-], at most 64 chars. */
export function safeToolCallId(id: string): string {
  const cleaned = id.replace(/[^A-Za-z0-9_-]/g, "_");
  return cleaned.length > 64 ? cleaned.slice(0, 64) : cleaned || "call";
}

export function convertPrompt(model: Model, context: LlmContext, opts: ConvertOptions): LanguageModelV3Prompt {
  const prompt: LanguageModelV3Prompt = [];
  if (context.systemPrompt) prompt.push({ role: "system", content: context.systemPrompt });
  const normId = opts.normalizeToolCallId ?? ((id: string) => id);
  const messages = context.messages.filter((m) => !(m.role === "assistant" && (m.stopReason === "error" || m.stopReason === "aborted")));
  let open: { ids: string[]; names: Map<string, string>; answered: Set<string> } | undefined;
  const closeOpen = () => {
    if (!open) return;
    const missing = open.ids.filter((id) => !open!.answered.has(id));
    if (missing.length > 0) {
      const content: ToolResultPart[] = missing.map((id) => ({
        type: "tool-result",
        toolCallId: normId(id),
        toolName: open!.names.get(id) ?? "unknown",
        output: { type: "error-text", value: INTERRUPTED_TOOL_RESULT },
      }));
      appendToolResults(prompt, content);
    }
    open = undefined;
  };
  for (const msg of messages) {
    if (msg.role === "toolResult") {
      if (!open || !open.names.has(msg.toolCallId) || open.answered.has(msg.toolCallId)) continue; // stray result
      open.answered.add(msg.toolCallId);
      // named as the call it answers: a deferred tool's result answers the model's call_tool
      appendToolResults(prompt, [toolResultPart(model, msg, normId, open.names.get(msg.toolCallId) ?? msg.toolName)]);
      continue;
    }
    closeOpen();
    if (msg.role === "assistant") {
      const content = assistantParts(model, msg, opts.codec, normId);
      if (content.length > 0) prompt.push({ role: "assistant", content });
      const calls = msg.content.filter((c) => c.type === "toolCall");
      if (calls.length > 0) open = { ids: calls.map((c) => c.id), names: new Map(calls.map((c) => [c.id, c.name])), answered: new Set() };
      continue;
    }
    pushUser(prompt, userParts(model, msg));
  }
  closeOpen();
  return prompt;
}

function pushUser(prompt: LanguageModelV3Prompt, content: UserPart[]): void {
  if (content.length === 0) return;
  prompt.push({ role: "user", content });
}

function appendToolResults(prompt: LanguageModelV3Prompt, parts: ToolResultPart[]): void {
  const last = prompt[prompt.length - 1];
  if (last && last.role === "tool") last.content.push(...parts);
  else prompt.push({ role: "tool", content: parts });
}

/** user and developer messages both go out as user turns (AI SDK prompts have no mid-conversation system role). */
function userParts(model: Model, msg: Exclude<LlmMessage, AssistantMessage | ToolResultMessage>): UserPart[] {
  if (typeof msg.content === "string") return msg.content.length > 0 ? [{ type: "text", text: msg.content }] : [];
  const parts: UserPart[] = [];
  for (const c of msg.content) {
    if (c.type === "text") {
      if (c.text.length > 0) parts.push({ type: "text", text: c.text });
    } else if (model.input.includes("image")) {
      parts.push({ type: "file", data: c.data, mediaType: c.mimeType });
    } else {
      parts.push({ type: "text", text: IMAGE_UNSUPPORTED });
    }
  }
  return parts;
}

function sameModel(model: Model, msg: AssistantMessage): boolean {
  return msg.api === model.api && msg.provider === model.provider && msg.model === model.id;
}

function assistantParts(model: Model, msg: AssistantMessage, codec: ReplayCodec, normId: (id: string) => string): AssistantPart[] {
  const same = sameModel(model, msg);
  const parts: AssistantPart[] = [];
  for (const block of msg.content) {
    switch (block.type) {
      case "text":
        if (block.text.length > 0) parts.push({ type: "text", text: block.text });
        break;
      case "thinking": {
        const options = same ? codec.thinkingOptions(block) : undefined;
        if (options) parts.push({ type: "reasoning", text: block.thinking, providerOptions: options });
        else if (same && codec.replayUnsignedThinking && block.thinking.trim()) parts.push({ type: "reasoning", text: block.thinking });
        else if (block.thinking.trim()) parts.push({ type: "text", text: block.thinking });
        break;
      }
      case "redactedThinking": {
        const options = same ? codec.redactedOptions(block.data) : undefined;
        if (options) parts.push({ type: "reasoning", text: "", providerOptions: options });
        break;
      }
      case "toolCall": {
        const options = same ? codec.toolCallOptions(block) : undefined;
        parts.push({
          type: "tool-call",
          toolCallId: normId(block.id),
          toolName: block.name,
          input: block.arguments,
          ...(options ? { providerOptions: options } : {}),
        });
        break;
      }
    }
  }
  return parts;
}

function toolResultPart(model: Model, msg: ToolResultMessage, normId: (id: string) => string, toolName: string): ToolResultPart {
  return { type: "tool-result", toolCallId: normId(msg.toolCallId), toolName, output: toolOutput(model, msg.content, msg.isError) };
}

function toolOutput(model: Model, content: UserContent[], isError: boolean): LanguageModelV3ToolResultOutput {
  const hasImage = content.some((c) => c.type === "image");
  if (!hasImage || !model.input.includes("image")) {
    const text = content.map((c) => (c.type === "text" ? c.text : IMAGE_UNSUPPORTED)).join("\n");
    return isError ? { type: "error-text", value: text } : { type: "text", value: text };
  }
  return {
    type: "content",
    value: content.map((c) => (c.type === "text" ? { type: "text" as const, text: c.text } : { type: "image-data" as const, data: c.data, mediaType: c.mimeType })),
  };
}

export function convertTools(tools: LlmTool[]): LanguageModelV3FunctionTool[] {
  // Cast: tool parameters are plain JSON Schema (checked where each tool is defined); the SDK types them as JSONSchema7.
  return tools.map((t) => ({ type: "function", name: t.name, description: t.description, inputSchema: t.parameters as JSONSchema7 }));
}

export function convertToolChoice(choice: ToolChoice | undefined): LanguageModelV3ToolChoice | undefined {
  if (choice === undefined) return undefined;
  if (typeof choice === "string") return { type: choice };
  return { type: "tool", toolName: choice.name };
}
