// Streamed `/chat/completions` chunks → the stream parts AssistantBuilder folds into a message.
//
// Rules: reasoning (`reasoning_content`, or `reasoning`) and text are one block each, and a block
// of one kind ends when the other kind starts; a tool call starts when its name is known (its
// argument text seen before that is kept for it), grows with each argument fragment and ends
// when the reply ends, in index order; a call is matched by its index, else by its id, else it
// is the one call still open. A reply that ends without a finish reason is a failure.
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { entryId } from "../../shared/ids.js";

/** The parts of a chunk this reader looks at (a loose view: servers vary). */
export interface ChatChunk {
  id?: string | null;
  choices?: Array<{ delta?: ChatDelta | null; finish_reason?: string | null }> | null;
  usage?: ChatUsage | null;
}

interface ChatDelta {
  content?: string | Array<{ type?: string; text?: unknown; thinking?: unknown }> | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: Array<{ index?: number | null; id?: string | null; function?: { name?: string | null; arguments?: string | null } | null }> | null;
}

export interface ChatUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

interface Call {
  id: string;
  index: number | undefined;
  name: string | undefined;
  /** Argument text that came before the name (the start waits for the name). */
  buffered: string;
  args: string;
  started: boolean;
}

type Part = LanguageModelV3StreamPart;
type FinishReason = { unified: string; raw: string | undefined };

export class ChatChunkReader {
  private first = true;
  private reasoning = false;
  private text = false;
  private finish: FinishReason | undefined;
  private usage: ChatUsage | undefined;
  private readonly calls: Call[] = [];
  /** Set by `end()` when the reply is not whole (no finish reason came): the stream's failure. */
  failure: Error | undefined;

  /** The parts one chunk adds. */
  read(chunk: ChatChunk): Part[] {
    const parts: Part[] = [];
    if (this.first) {
      this.first = false;
      if (typeof chunk.id === "string") parts.push({ type: "response-metadata", id: chunk.id });
    }
    if (chunk.usage) this.usage = chunk.usage;
    const choice = chunk.choices?.[0];
    if (choice?.finish_reason) this.finish = { unified: mapFinish(choice.finish_reason), raw: choice.finish_reason };
    const delta = choice?.delta;
    if (!delta) return parts;
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (reasoning) this.reasoningDelta(reasoning, parts);
    for (const c of contentParts(delta.content)) {
      if (c.reasoning) this.reasoningDelta(c.text, parts);
      else this.textDelta(c.text, parts);
    }
    if (delta.tool_calls && delta.tool_calls.length > 0) {
      this.endReasoning(parts);
      for (const d of delta.tool_calls) this.callDelta(d, parts);
    }
    return parts;
  }

  /** The parts that close the reply once the body has ended. */
  end(): Part[] {
    const parts: Part[] = [];
    this.endReasoning(parts);
    if (this.text) parts.push({ type: "text-end", id: "txt-0" });
    this.text = false;
    const ordered = this.calls.every((c) => c.index !== undefined) ? [...this.calls].sort((a, b) => a.index! - b.index!) : this.calls;
    for (const call of ordered) {
      if (!call.started) this.startCall(call, call.name ?? "", parts);
      parts.push({ type: "tool-input-end", id: call.id });
      parts.push({ type: "tool-call", toolCallId: call.id, toolName: call.name ?? "", input: call.args });
    }
    if (!this.finish) {
      this.failure = new Error("Response stream ended without a finish reason.");
      return parts;
    }
    parts.push({ type: "finish", finishReason: this.finish as Extract<Part, { type: "finish" }>["finishReason"], usage: convertUsage(this.usage) });
    return parts;
  }

  private reasoningDelta(delta: string, parts: Part[]): void {
    if (this.text) parts.push({ type: "text-end", id: "txt-0" });
    this.text = false;
    if (!this.reasoning) parts.push({ type: "reasoning-start", id: "reasoning-0" });
    this.reasoning = true;
    parts.push({ type: "reasoning-delta", id: "reasoning-0", delta });
  }

  private textDelta(delta: string, parts: Part[]): void {
    this.endReasoning(parts);
    if (!this.text) parts.push({ type: "text-start", id: "txt-0" });
    this.text = true;
    parts.push({ type: "text-delta", id: "txt-0", delta });
  }

  private endReasoning(parts: Part[]): void {
    if (this.reasoning) parts.push({ type: "reasoning-end", id: "reasoning-0" });
    this.reasoning = false;
  }

  private callDelta(d: NonNullable<ChatDelta["tool_calls"]>[number], parts: Part[]): void {
    const index = typeof d.index === "number" ? d.index : undefined;
    const id = typeof d.id === "string" && d.id.trim() ? d.id : undefined;
    const name = typeof d.function?.name === "string" && d.function.name.trim() ? d.function.name : undefined;
    const args = typeof d.function?.arguments === "string" ? d.function.arguments : "";
    let call = index !== undefined ? this.calls.find((c) => c.index === index) : undefined;
    if (!call && id) call = this.calls.find((c) => c.id === id);
    if (!call && index === undefined && !name) {
      const open = this.calls.filter((c) => !c.started || c.index === undefined);
      if (open.length === 1) call = open[0];
    }
    if (!call) {
      call = { id: this.freshId(id), index, name: undefined, buffered: "", args: "", started: false };
      this.calls.push(call);
    }
    if (!call.started) {
      call.buffered += args;
      if (name) {
        this.startCall(call, name, parts);
        if (call.buffered) this.argsDelta(call, call.buffered, parts);
      }
      return;
    }
    if (args) this.argsDelta(call, args, parts);
  }

  private startCall(call: Call, name: string, parts: Part[]): void {
    call.name = name;
    call.started = true;
    parts.push({ type: "tool-input-start", id: call.id, toolName: name });
  }

  private argsDelta(call: Call, delta: string, parts: Part[]): void {
    call.args += delta;
    parts.push({ type: "tool-input-delta", id: call.id, delta });
  }

  /** The server's id when it is new in this reply, else one made up (unique within the reply). */
  private freshId(id: string | undefined): string {
    if (id && !this.calls.some((c) => c.id === id)) return id;
    let made = `call_${entryId()}`;
    while (this.calls.some((c) => c.id === made)) made = `call_${entryId()}`;
    return made;
  }
}

function contentParts(content: ChatDelta["content"]): Array<{ text: string; reasoning: boolean }> {
  if (content == null) return [];
  if (typeof content === "string") return content.length > 0 ? [{ text: content, reasoning: false }] : [];
  const out: Array<{ text: string; reasoning: boolean }> = [];
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string" && part.text.length > 0) out.push({ text: part.text, reasoning: false });
    else if (part.type === "thinking" && Array.isArray(part.thinking)) {
      const text = (part.thinking as Array<{ type?: unknown; text?: unknown }>)
        .filter((t) => t && t.type === "text" && typeof t.text === "string")
        .map((t) => t.text as string)
        .join("");
      if (text.length > 0) out.push({ text, reasoning: true });
    }
  }
  return out;
}

function mapFinish(reason: string): string {
  switch (reason) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "content_filter":
      return "content-filter";
    case "function_call":
    case "tool_calls":
      return "tool-calls";
    default:
      return "other";
  }
}

function convertUsage(usage: ChatUsage | undefined): Extract<Part, { type: "finish" }>["usage"] {
  if (!usage) {
    return { inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: undefined, text: undefined, reasoning: undefined } };
  }
  const prompt = usage.prompt_tokens ?? 0;
  const completion = usage.completion_tokens ?? 0;
  const cached = usage.prompt_tokens_details?.cached_tokens ?? 0;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens ?? 0;
  return {
    inputTokens: { total: prompt, noCache: prompt - cached, cacheRead: cached, cacheWrite: undefined },
    outputTokens: { total: completion, text: Math.max(0, completion - reasoning), reasoning },
    raw: usage as Record<string, never>,
  };
}
