// The JSON body of a `/chat/completions` request for OpenAI-compatible servers, written as text.
//
// The context grows by a few messages per turn, so each message's wire JSON is made once and
// kept per message object (messages in a context are never changed in place; a changed one is a
// new object): a request costs the new messages plus joining strings, not a re-serialisation of
// the whole conversation. A message whose JSON is over CACHE_MAX is made again per request
// instead of being kept (memory stays bounded by what the process holds anyway), and travels as
// its own part of the body, never copied into a bigger string. The parts joined are exactly
// JSON.stringify of the body object: same keys, same order, same bytes (prompt-cache prefixes
// stay byte-stable).
//
// Conversion rules (the wire the openai-compatible servers expect):
// - the system prompt is the first message; failed and aborted assistant replies are left out;
// - every tool call is answered right after its assistant message: results in the order they
//   came, a missing one as an error result, a stray or repeated result dropped;
// - a user message of one text part is a plain string; images become `image_url` data URLs, or a
//   note when the model takes no images;
// - an assistant message is its text, its thinking as `reasoning_content` when it was written by
//   this same model (else as text), and its tool calls with their arguments as JSON text.
import type { AssistantMessage, LlmMessage, Model, ToolResultMessage, UserContent } from "../../shared/types.js";
import type { LlmContext, ToolChoice } from "../types.js";
import { INTERRUPTED_TOOL_RESULT } from "./convert-messages.js";

const IMAGE_UNSUPPORTED = "(image omitted: this model does not accept images)";

/** Fields of the body other than `messages`, in wire order (undefined ones are left out). */
export interface ChatBodyFields {
  model: string;
  max_tokens: number;
  temperature?: number;
  prompt_cache_key?: string;
  reasoning_effort?: string;
  tools?: unknown[];
  tool_choice?: unknown;
  /** `compat.extraBody`: merged over the body last. */
  extra?: Record<string, unknown>;
}

/** One message's wire JSON texts (0 or 1), for the model it was made for. */
interface Cached {
  key: string;
  json: string[];
}

const cache = new WeakMap<LlmMessage, Cached>();
/** Longest message JSON kept between requests (UTF-16 units). */
const CACHE_MAX = 256 * 1024;
/** Consecutive small message texts are joined into parts of about this size. */
const PART_SIZE = 256 * 1024;
/** Stands for the messages array while the rest of the body is serialised. */
const SLOT = `\u0000pith-messages-${Math.random().toString(36).slice(2)}\u0000`;

/** The request body as JSON text. */
export function chatBodyText(model: Model, context: LlmContext, fields: ChatBodyFields): string {
  return chatBodyParts(model, context, fields).join("");
}

/** The request body as consecutive pieces of its JSON text (big messages on their own). */
export function chatBodyParts(model: Model, context: LlmContext, fields: ChatBodyFields): string[] {
  const messages = messageTexts(model, context);
  const { extra, ...rest } = fields;
  const body: Record<string, unknown> = { model: rest.model, max_tokens: rest.max_tokens, temperature: rest.temperature };
  body.prompt_cache_key = rest.prompt_cache_key;
  body.reasoning_effort = rest.reasoning_effort;
  body.messages = SLOT;
  body.tools = rest.tools;
  body.tool_choice = rest.tool_choice;
  body.stream = true;
  body.stream_options = { include_usage: true };
  if (extra) Object.assign(body, extra);
  const text = JSON.stringify(body);
  const slot = JSON.stringify(SLOT);
  const at = body.messages === SLOT ? text.indexOf(slot) : -1;
  if (at === -1) return [text]; // extraBody replaced `messages`: nothing to splice in
  return [text.slice(0, at) + "[", ...joinParts(messages), "]" + text.slice(at + slot.length)];
}

/** The message texts comma-separated, small ones joined into parts of about PART_SIZE. */
function joinParts(texts: string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  let size = 0;
  const close = () => {
    if (run.length > 0) out.push(run.join(""));
    run = [];
    size = 0;
  };
  texts.forEach((t, i) => {
    const piece = i === 0 ? t : `,${t}`;
    if (piece.length >= PART_SIZE) {
      close();
      out.push(i === 0 ? "" : ",", t);
      return;
    }
    run.push(piece);
    size += piece.length;
    if (size >= PART_SIZE) close();
  });
  close();
  return out;
}

/** The wire `tools` list, or undefined when there are none. */
export function chatTools(context: LlmContext): unknown[] | undefined {
  if (context.tools.length === 0) return undefined;
  return context.tools.map((t) => ({ type: "function", function: { name: t.name, description: t.description, parameters: t.parameters } }));
}

/** The wire `tool_choice`, sent only with tools. */
export function chatToolChoice(choice: ToolChoice | undefined): unknown {
  if (choice === undefined) return undefined;
  if (typeof choice === "string") return choice;
  return { type: "function", function: { name: choice.name } };
}

function modelKey(model: Model): string {
  return `${model.api}\n${model.provider}\n${model.id}\n${model.input.includes("image") ? 1 : 0}`;
}

/** The JSON text of every wire message, in order. */
export function messageTexts(model: Model, context: LlmContext): string[] {
  const key = modelKey(model);
  const out: string[] = [];
  if (context.systemPrompt) out.push(JSON.stringify({ role: "system", content: context.systemPrompt }));
  let open: { names: Map<string, string>; answered: Set<string> } | undefined;
  const closeOpen = () => {
    if (!open) return;
    for (const id of open.names.keys()) {
      if (!open.answered.has(id)) out.push(JSON.stringify({ role: "tool", tool_call_id: id, content: INTERRUPTED_TOOL_RESULT }));
    }
    open = undefined;
  };
  for (const msg of context.messages) {
    if (msg.role === "assistant" && (msg.stopReason === "error" || msg.stopReason === "aborted")) continue;
    if (msg.role === "toolResult") {
      if (!open || !open.names.has(msg.toolCallId) || open.answered.has(msg.toolCallId)) continue; // stray result
      open.answered.add(msg.toolCallId);
      out.push(...wire(msg, key, model));
      continue;
    }
    closeOpen();
    out.push(...wire(msg, key, model));
    if (msg.role === "assistant") {
      const names = new Map<string, string>();
      for (const c of msg.content) if (c.type === "toolCall") names.set(c.id, c.name);
      if (names.size > 0) open = { names, answered: new Set() };
    }
  }
  closeOpen();
  return out;
}

function wire(msg: LlmMessage, key: string, model: Model): string[] {
  const hit = cache.get(msg);
  if (hit && hit.key === key) return hit.json;
  const value = msg.role === "assistant" ? assistantWire(model, msg) : msg.role === "toolResult" ? toolWire(model, msg) : userWire(model, msg.content);
  const json = value === undefined ? [] : [JSON.stringify(value)];
  if (json.length === 0 || json[0].length <= CACHE_MAX) cache.set(msg, { key, json });
  return json;
}

function userWire(model: Model, content: string | UserContent[]): object | undefined {
  if (typeof content === "string") return content.length > 0 ? { role: "user", content } : undefined;
  const parts: Array<{ type: "text"; text: string } | { type: "image_url"; image_url: { url: string } }> = [];
  for (const c of content) {
    if (c.type === "text") {
      if (c.text.length > 0) parts.push({ type: "text", text: c.text });
    } else if (model.input.includes("image")) {
      const mediaType = c.mimeType === "image/*" ? "image/jpeg" : c.mimeType;
      parts.push({ type: "image_url", image_url: { url: `data:${mediaType};base64,${c.data}` } });
    } else {
      parts.push({ type: "text", text: IMAGE_UNSUPPORTED });
    }
  }
  if (parts.length === 0) return undefined;
  if (parts.length === 1 && parts[0].type === "text") return { role: "user", content: parts[0].text };
  return { role: "user", content: parts };
}

function sameModel(model: Model, msg: AssistantMessage): boolean {
  return msg.api === model.api && msg.provider === model.provider && msg.model === model.id;
}

function assistantWire(model: Model, msg: AssistantMessage): object | undefined {
  const same = sameModel(model, msg);
  let text = "";
  let reasoning = "";
  let parts = 0;
  const toolCalls: object[] = [];
  for (const block of msg.content) {
    if (block.type === "text") {
      if (block.text.length === 0) continue;
      text += block.text;
      parts++;
    } else if (block.type === "thinking") {
      if (!block.thinking.trim()) continue;
      if (same) reasoning += block.thinking;
      else text += block.thinking;
      parts++;
    } else if (block.type === "toolCall") {
      toolCalls.push({ id: block.id, type: "function", function: { name: block.name, arguments: JSON.stringify(block.arguments) } });
      parts++;
    }
  }
  if (parts === 0) return undefined;
  const out: Record<string, unknown> = { role: "assistant", content: toolCalls.length > 0 ? text || null : text };
  if (reasoning.length > 0) out.reasoning_content = reasoning;
  if (toolCalls.length > 0) out.tool_calls = toolCalls;
  return out;
}

function toolWire(model: Model, msg: ToolResultMessage): object {
  const hasImage = msg.content.some((c) => c.type === "image");
  let content: string;
  if (!hasImage || !model.input.includes("image")) {
    content = msg.content.map((c) => (c.type === "text" ? c.text : IMAGE_UNSUPPORTED)).join("\n");
  } else {
    // Images in a tool result travel as the JSON of the parts (the wire has no image parts for tool messages).
    content = JSON.stringify(msg.content.map((c) => (c.type === "text" ? { type: "text", text: c.text } : { type: "image-data", data: c.data, mediaType: c.mimeType })));
  }
  return { role: "tool", tool_call_id: msg.toolCallId, content };
}
