// Prompt caching over the AI SDK call options, for any tool list and any conversation.
//
// Anthropic caches a request's prefix (tools → system → messages) up to each `cache_control`
// breakpoint, at most 4 per request. pith marks:
//   1. the last tool (the tool list is stable for a session),
//   2. the system prompt (stable too),
//   3. the last message (the next request appends to it, so it reads this whole request back),
//   4. the last message of the previous request (the one before the latest assistant reply), so a
//      turn that added more than Anthropic's 20-block lookback (many parallel tool calls) still
//      reads the previous prefix.
// The marks ride on providerOptions, which never change the bytes of the content itself.
// OpenAI's equivalent is `prompt_cache_key` (see promptCacheKey below).
import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import type { Model } from "../../shared/types.js";
import type { CacheRetention, StreamOptions } from "../types.js";

export interface AnthropicCacheControl {
  type: "ephemeral";
  ttl?: "1h";
}

/** The `cache_control` value for a retention; undefined when caching is off. */
export function anthropicCacheControl(retention: CacheRetention | undefined): AnthropicCacheControl | undefined {
  if (retention === "none") return undefined;
  return retention === "long" ? { type: "ephemeral", ttl: "1h" } : { type: "ephemeral" };
}

type ProviderOptions = NonNullable<LanguageModelV3CallOptions["providerOptions"]>;

function mark(target: { providerOptions?: ProviderOptions }, control: AnthropicCacheControl): void {
  const prev = target.providerOptions ?? {};
  target.providerOptions = { ...prev, anthropic: { ...prev.anthropic, cacheControl: { ...control } } };
}

/**
 * Places Anthropic cache breakpoints on `call` in place (see the file comment). Returns how
 * many were placed (0 with retention "none").
 */
export function placeAnthropicBreakpoints(call: LanguageModelV3CallOptions, retention: CacheRetention | undefined): number {
  const control = anthropicCacheControl(retention);
  if (!control) return 0;
  let placed = 0;
  const tools = call.tools;
  if (tools && tools.length > 0) {
    // Provider-defined tools carry no options; the last function tool ends the tool prefix.
    const last = tools[tools.length - 1];
    if (last.type === "function") {
      mark(last, control);
      placed++;
    }
  }
  const prompt = call.prompt;
  let lastSystem = -1;
  for (let i = 0; i < prompt.length && prompt[i].role === "system"; i++) lastSystem = i;
  if (lastSystem >= 0) {
    mark(prompt[lastSystem], control);
    placed++;
  }
  const lastIndex = prompt.length - 1;
  if (lastIndex > lastSystem) {
    mark(prompt[lastIndex], control);
    placed++;
    const previous = previousRequestEnd(call, lastSystem);
    if (previous !== undefined) {
      mark(prompt[previous], control);
      placed++;
    }
  }
  return placed;
}

/** Index of the last message before the latest assistant message, if it is a conversation message. */
function previousRequestEnd(call: LanguageModelV3CallOptions, lastSystem: number): number | undefined {
  const prompt = call.prompt;
  for (let i = prompt.length - 2; i > lastSystem; i--) {
    if (prompt[i].role !== "assistant") continue;
    const before = i - 1;
    return before > lastSystem && prompt[before].role !== "assistant" ? before : undefined;
  }
  return undefined;
}

const openAiHosts = new Map<string, boolean>();

/** True when the base URL is OpenAI's own API (asked on every request: the answer is kept per URL). */
export function isOpenAiHost(baseUrl: string): boolean {
  let known = openAiHosts.get(baseUrl);
  if (known === undefined) {
    known = hostOf(baseUrl) === "api.openai.com";
    if (openAiHosts.size >= 64) openAiHosts.clear();
    openAiHosts.set(baseUrl, known);
  }
  return known;
}

function hostOf(baseUrl: string): string | undefined {
  try {
    return new URL(baseUrl).hostname;
  } catch (err) {
    void err; // not a URL: treat as a custom server
    return undefined;
  }
}

/**
 * OpenAI's `prompt_cache_key` for this request: the session id (or `--provider-session-id`)
 * for OpenAI's own endpoints and for models whose compat sets `promptCacheKey: true` (strict
 * OpenAI-compatible servers reject unknown fields, so others get none); none when retention is
 * "none" or there is no id.
 */
export function promptCacheKey(model: Model, options: StreamOptions): string | undefined {
  if (options.cacheRetention === "none" || !options.sessionId) return undefined;
  const flag = model.compat?.promptCacheKey;
  if (flag === false) return undefined;
  return flag === true || isOpenAiHost(model.baseUrl) ? options.sessionId : undefined;
}

/**
 * OpenAI's extended prompt caching: `prompt_cache_retention: "24h"` with `cacheRetention: "long"`,
 * sent to OpenAI's own endpoints only (other servers on the API reject unknown fields).
 */
export function openAiCacheRetention(model: Model, options: StreamOptions): "24h" | undefined {
  return options.cacheRetention === "long" && model.compat?.promptCacheKey !== false && isOpenAiHost(model.baseUrl) ? "24h" : undefined;
}
