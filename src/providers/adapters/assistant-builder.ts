// Folds AI SDK stream parts into pith's partial AssistantMessage and the AssistantMessageEvents
// that describe each change. Pure state: no I/O, no clocks except the injected `now`.
import type { LanguageModelV3StreamPart, LanguageModelV3Usage } from "@ai-sdk/provider";
import type { AssistantMessage, AssistantMessageEvent, Model, StopReason, ToolCall, Usage } from "../../shared/types.js";
import { emptyAssistantMessage, emptyUsage } from "../../shared/types.js";
import { usageWithCost } from "../cost.js";
import { parseFinalJson, parsePartialJson } from "./partial-json.js";
import { mergeMeta, type ProviderMeta, type ReplayCodec } from "./replay.js";

type Kind = "text" | "thinking" | "redacted" | "toolCall";
interface OpenBlock {
  kind: Kind;
  index: number;
  meta: Record<string, Record<string, unknown>>;
  raw: string;
  deltas: number;
}

export const STREAM_ENDED_UNEXPECTEDLY = "stream ended unexpectedly";

export type FinishInfo = { reason: "stop" | "length" | "toolUse" } | { error: string };

/** Re-parse growing tool arguments on every delta only while they are small. */
const REPARSE_ALWAYS_BELOW = 32_768;

export class AssistantBuilder {
  readonly partial: AssistantMessage;
  ttft: number | undefined;
  usage: Usage = emptyUsage();
  finish: FinishInfo | undefined;
  private readonly open = new Map<string, OpenBlock>();

  constructor(
    private readonly model: Model,
    private readonly codec: ReplayCodec,
    private readonly startedAt: number,
    private readonly now: () => number = Date.now,
  ) {
    this.partial = emptyAssistantMessage(model, startedAt);
  }

  /** Events for one stream part (often none). */
  handle(part: LanguageModelV3StreamPart): AssistantMessageEvent[] {
    switch (part.type) {
      case "text-start":
        return this.startBlock(`t:${part.id}`, "text", part.providerMetadata);
      case "text-delta":
        return this.delta(`t:${part.id}`, "text", part.delta, part.providerMetadata);
      case "text-end":
        return this.endBlock(`t:${part.id}`, part.providerMetadata);
      case "reasoning-start":
        return this.startBlock(`r:${part.id}`, "thinking", part.providerMetadata);
      case "reasoning-delta":
        return this.delta(`r:${part.id}`, "thinking", part.delta, part.providerMetadata);
      case "reasoning-end":
        return this.endBlock(`r:${part.id}`, part.providerMetadata);
      case "tool-input-start":
        return this.startToolCall(part.id, part.toolName, part.providerMetadata);
      case "tool-input-delta":
        return this.delta(`c:${part.id}`, "toolCall", part.delta, part.providerMetadata);
      case "tool-call":
        if (part.providerExecuted) return [];
        return this.endToolCall(part.toolCallId, part.toolName, part.input, part.providerMetadata);
      case "response-metadata":
        if (part.id) this.partial.responseId = part.id;
        return [];
      case "finish":
        return this.onFinish(part.usage, part.finishReason);
      default:
        return [];
    }
  }

  private startBlock(key: string, kind: "text" | "thinking", meta: ProviderMeta): AssistantMessageEvent[] {
    if (this.open.has(key)) return [];
    const block: OpenBlock = { kind, index: this.partial.content.length, meta: {}, raw: "", deltas: 0 };
    mergeMeta(block.meta, meta);
    this.open.set(key, block);
    if (kind === "thinking") {
      const redacted = this.codec.captureRedacted(meta);
      if (redacted !== undefined) {
        block.kind = "redacted";
        this.partial.content.push({ type: "redactedThinking", data: redacted });
        return [];
      }
      this.partial.content.push({ type: "thinking", thinking: "" });
      return [{ type: "thinking_start", contentIndex: block.index, partial: this.partial }];
    }
    this.partial.content.push({ type: "text", text: "" });
    return [{ type: "text_start", contentIndex: block.index, partial: this.partial }];
  }

  private delta(key: string, kind: "text" | "thinking" | "toolCall", delta: string, meta: ProviderMeta): AssistantMessageEvent[] {
    const events: AssistantMessageEvent[] = [];
    let block = this.open.get(key);
    if (!block) {
      if (kind === "toolCall") return []; // arguments for a call we never saw start: the tool-call part carries them
      events.push(...this.startBlock(key, kind, meta));
      block = this.open.get(key)!;
    }
    mergeMeta(block.meta, meta);
    if (delta.length === 0 || block.kind === "redacted") return events;
    this.ttft ??= this.now() - this.startedAt;
    const content = this.partial.content[block.index];
    const contentIndex = block.index;
    if (content.type === "text") {
      content.text += delta;
      events.push({ type: "text_delta", contentIndex, delta, partial: this.partial });
    } else if (content.type === "thinking") {
      content.thinking += delta;
      events.push({ type: "thinking_delta", contentIndex, delta, partial: this.partial });
    } else if (content.type === "toolCall") {
      block.raw += delta;
      block.deltas++;
      if (block.raw.length < REPARSE_ALWAYS_BELOW || block.deltas % 32 === 0) content.arguments = parsePartialJson(block.raw);
      events.push({ type: "toolcall_delta", contentIndex, delta, partial: this.partial });
    }
    return events;
  }

  private endBlock(key: string, meta: ProviderMeta): AssistantMessageEvent[] {
    const block = this.open.get(key);
    if (!block) return [];
    this.open.delete(key);
    mergeMeta(block.meta, meta);
    const content = this.partial.content[block.index];
    const contentIndex = block.index;
    if (content.type === "text") return [{ type: "text_end", contentIndex, content: content.text, partial: this.partial }];
    if (content.type === "thinking") {
      const signature = this.codec.captureThinkingSignature(block.meta);
      if (signature !== undefined) content.thinkingSignature = signature;
      return [{ type: "thinking_end", contentIndex, content: content.thinking, partial: this.partial }];
    }
    return [];
  }

  private startToolCall(id: string, name: string, meta: ProviderMeta): AssistantMessageEvent[] {
    const key = `c:${id}`;
    if (this.open.has(key)) return [];
    const block: OpenBlock = { kind: "toolCall", index: this.partial.content.length, meta: {}, raw: "", deltas: 0 };
    mergeMeta(block.meta, meta);
    this.open.set(key, block);
    this.partial.content.push({ type: "toolCall", id, name, arguments: {} });
    this.ttft ??= this.now() - this.startedAt;
    return [{ type: "toolcall_start", contentIndex: block.index, partial: this.partial }];
  }

  private endToolCall(id: string, name: string, input: string, meta: ProviderMeta): AssistantMessageEvent[] {
    const events: AssistantMessageEvent[] = [];
    const key = `c:${id}`;
    if (!this.open.has(key)) {
      events.push(...this.startToolCall(id, name, meta));
      if (input) events.push(...this.delta(key, "toolCall", input, undefined));
    }
    const block = this.open.get(key)!;
    this.open.delete(key);
    mergeMeta(block.meta, meta);
    const call = this.partial.content[block.index] as ToolCall;
    // Malformed JSON becomes `{}`: the tool's schema validation then reports the missing
    // arguments to the model as an isError result, which is how models recover.
    call.arguments = parseFinalJson(input || block.raw).value;
    const signature = this.codec.captureToolCallSignature(block.meta);
    if (signature !== undefined) call.thoughtSignature = signature;
    events.push({ type: "toolcall_end", contentIndex: block.index, toolCall: { ...call }, partial: this.partial });
    return events;
  }

  private onFinish(usage: LanguageModelV3Usage, finishReason: { unified: string; raw: string | undefined }): AssistantMessageEvent[] {
    this.usage = convertUsage(this.model, usage);
    const events = this.closeOpenBlocks();
    const hasCalls = this.partial.content.some((c) => c.type === "toolCall");
    switch (finishReason.unified) {
      case "error":
        this.finish = { error: `Provider finished with an error${finishReason.raw ? ` (${finishReason.raw})` : ""}` };
        break;
      case "content-filter":
        this.finish = { error: `Provider stopped the response: content filter${finishReason.raw ? ` (${finishReason.raw})` : ""}` };
        break;
      case "other":
        // No finish reason ever arrived: the body ended before the provider said it was done.
        this.finish = finishReason.raw === undefined ? { error: STREAM_ENDED_UNEXPECTEDLY } : { reason: hasCalls ? "toolUse" : "stop" };
        break;
      case "length":
        this.finish = { reason: hasCalls ? "toolUse" : "length" };
        break;
      default:
        this.finish = { reason: hasCalls ? "toolUse" : "stop" };
    }
    return events;
  }

  /** End events for blocks the provider never closed (tool calls keep their parsed arguments). */
  private closeOpenBlocks(): AssistantMessageEvent[] {
    const events: AssistantMessageEvent[] = [];
    for (const [key, block] of [...this.open]) {
      if (block.kind === "toolCall") {
        const call = this.partial.content[block.index] as ToolCall;
        events.push(...this.endToolCall(call.id, call.name, block.raw, undefined));
      } else {
        events.push(...this.endBlock(key, undefined));
      }
    }
    return events;
  }

  /** A fresh final message (no shared references with the partial). */
  finalMessage(stopReason: StopReason, extra: Partial<AssistantMessage> = {}): AssistantMessage {
    const base = structuredClone(this.partial);
    const message: AssistantMessage = { ...base, usage: this.usage, stopReason, ...extra };
    const duration = this.now() - this.startedAt;
    message.duration = duration;
    if (this.ttft !== undefined) message.ttft = this.ttft;
    return message;
  }
}

function convertUsage(model: Model, u: LanguageModelV3Usage): Usage {
  const cacheRead = u.inputTokens.cacheRead ?? 0;
  const cacheWrite = u.inputTokens.cacheWrite ?? 0;
  const input = u.inputTokens.noCache ?? Math.max(0, (u.inputTokens.total ?? 0) - cacheRead - cacheWrite);
  const output = u.outputTokens.total ?? (u.outputTokens.text ?? 0) + (u.outputTokens.reasoning ?? 0);
  const cacheWrite1h = longCacheWrites(u.raw);
  return usageWithCost(model, { input, output, cacheRead, cacheWrite, ...(cacheWrite1h > 0 ? { cacheWrite1h } : {}) });
}

/** Anthropic's `usage.cache_creation.ephemeral_1h_input_tokens` (raw usage), else 0. */
function longCacheWrites(raw: LanguageModelV3Usage["raw"]): number {
  const creation = raw?.cache_creation;
  if (!creation || typeof creation !== "object" || Array.isArray(creation)) return 0;
  const n = (creation as Record<string, unknown>).ephemeral_1h_input_tokens;
  return typeof n === "number" && Number.isFinite(n) && n > 0 ? n : 0;
}
