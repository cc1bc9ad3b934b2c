// The one narrow contract between the agent and every LLM API.
import type { AssistantMessageEvent, LlmMessage, Model, ThinkingLevel } from "../shared/types.js";

/** A tool as the model sees it. `parameters` is a JSON Schema object. */
export interface LlmTool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface LlmContext {
  systemPrompt: string;
  messages: LlmMessage[];
  tools: LlmTool[];
}

/** How long a provider should keep the prompt prefix cached: none, ~5 minutes (default) or ~1 hour. */
export type CacheRetention = "none" | "short" | "long";

export type ToolChoice = "auto" | "none" | "required" | { type: "tool"; name: string };

export interface StreamOptions {
  /** Unset means "provider default" (no reasoning parameters sent). */
  thinkingLevel?: ThinkingLevel;
  signal?: AbortSignal;
  apiKey?: string;
  /** Defaults to min(model.maxTokens, 32000). */
  maxTokens?: number;
  temperature?: number;
  toolChoice?: ToolChoice;
  /** Provider caching affinity (the prompt-cache key where the provider has one). */
  sessionId?: string;
  /** Prompt caching: Anthropic breakpoints and their ttl, OpenAI's prompt_cache_key; default "short". */
  cacheRetention?: CacheRetention;
  headers?: Record<string, string>;
  /** Fail the attempt (retryably) when no data arrives this long after the request; 0/unset = no limit. */
  firstByteTimeoutMs?: number;
  /** Fail the attempt (retryably) when the reply goes silent this long between chunks; 0/unset = no limit. */
  idleTimeoutMs?: number;
}

/**
 * Streams one assistant reply. Yields `start`, then content events, then exactly one
 * terminal `done` or `error` carrying the final message. Never throws once iteration has
 * begun: failures and aborts are `error` events with `stopReason: "error" | "aborted"`.
 */
export type StreamFn = (model: Model, context: LlmContext, options: StreamOptions) => AsyncIterable<AssistantMessageEvent>;
