// openai-completions: OpenAI itself through @ai-sdk/openai `.chat()` (it knows
// max_completion_tokens and reasoning models); every other `/chat/completions` server through
// @ai-sdk/openai-compatible, which sends plain `max_tokens`, reads and replays `reasoning_content`.
import { createOpenAI } from "@ai-sdk/openai";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import type { Model } from "../../shared/types.js";
import type { StreamFn } from "../types.js";
import { requestHeaders, streamWithAiSdk, type AdapterSpec } from "./ai-sdk-stream.js";
import { isOpenAiHost, openAiCacheRetention, promptCacheKey } from "./prompt-cache.js";
import { completionsCodec, type PartOptions } from "./replay.js";

export { isOpenAiHost };

function extraBody(model: Model): Record<string, unknown> {
  const extra = model.compat?.extraBody;
  return extra && typeof extra === "object" && !Array.isArray(extra) ? (extra as Record<string, unknown>) : {};
}

const spec: AdapterSpec = {
  codec: completionsCodec,
  createModel(model, options) {
    const headers = requestHeaders(model, options);
    if (isOpenAiHost(model.baseUrl)) {
      return createOpenAI({ baseURL: model.baseUrl, apiKey: options.apiKey ?? "", headers }).chat(model.id);
    }
    const body = extraBody(model);
    return createOpenAICompatible({
      name: "openaiCompatible",
      baseURL: model.baseUrl,
      ...(options.apiKey ? { apiKey: options.apiKey } : {}),
      headers,
      includeUsage: true,
      ...(Object.keys(body).length > 0 ? { transformRequestBody: (args: Record<string, unknown>) => ({ ...args, ...body }) } : {}),
    }).chatModel(model.id);
  },
  baseProviderOptions(model, options): PartOptions {
    const key = promptCacheKey(model, options);
    if (key === undefined) return {};
    // OpenAI's own client knows the option; the compatible client passes unknown keys through as is.
    if (!isOpenAiHost(model.baseUrl)) return { openaiCompatible: { prompt_cache_key: key } };
    const retention = openAiCacheRetention(model, options);
    return { openai: { promptCacheKey: key, ...(retention ? { promptCacheRetention: retention } : {}) } };
  },
};

export const streamOpenAICompletions: StreamFn = (model, context, options) => streamWithAiSdk(spec, model, context, options);

/** Exposed for request-building tests. */
export const completionsAdapterSpec = spec;
