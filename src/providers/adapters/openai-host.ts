// openai-completions against OpenAI's own API: @ai-sdk/openai `.chat()`, which knows OpenAI's
// models (max_completion_tokens, the developer role and the parameters reasoning models refuse).
import { createOpenAI } from "@ai-sdk/openai";
import type { StreamFn } from "../types.js";
import { requestHeaders, streamWithAiSdk, type AdapterSpec } from "./ai-sdk-stream.js";
import { openAiCacheRetention, promptCacheKey } from "./prompt-cache.js";
import { completionsCodec, type PartOptions } from "./replay.js";

const spec: AdapterSpec = {
  codec: completionsCodec,
  createModel(model, options) {
    return createOpenAI({ baseURL: model.baseUrl, apiKey: options.apiKey ?? "", headers: requestHeaders(model, options) }).chat(model.id);
  },
  baseProviderOptions(model, options): PartOptions {
    const key = promptCacheKey(model, options);
    if (key === undefined) return {};
    const retention = openAiCacheRetention(model, options);
    return { openai: { promptCacheKey: key, ...(retention ? { promptCacheRetention: retention } : {}) } };
  },
};

export const streamOpenAIHost: StreamFn = (model, context, options) => streamWithAiSdk(spec, model, context, options);

/** Exposed for request-building tests. */
export const completionsAdapterSpec = spec;
