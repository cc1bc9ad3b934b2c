// openai-responses over @ai-sdk/openai `.responses()`. Stateless (`store: false`): reasoning
// is replayed from its encrypted content, kept as the thinking block's signature.
import { createOpenAI } from "@ai-sdk/openai";
import type { StreamFn } from "../types.js";
import { requestHeaders, streamWithAiSdk, type AdapterSpec } from "./ai-sdk-stream.js";
import { openAiCacheRetention, promptCacheKey } from "./prompt-cache.js";
import { responsesCodec } from "./replay.js";

const spec: AdapterSpec = {
  codec: responsesCodec,
  createModel(model, options) {
    return createOpenAI({ baseURL: model.baseUrl, apiKey: options.apiKey ?? "", headers: requestHeaders(model, options) }).responses(model.id);
  },
  baseProviderOptions(model, options) {
    const openai: Record<string, unknown> = { store: false };
    if (model.reasoning) openai.include = ["reasoning.encrypted_content"];
    const key = promptCacheKey(model, options);
    if (key !== undefined) openai.promptCacheKey = key;
    const retention = openAiCacheRetention(model, options);
    if (retention) openai.promptCacheRetention = retention;
    return { openai };
  },
};

export const streamOpenAIResponses: StreamFn = (model, context, options) => streamWithAiSdk(spec, model, context, options);

/** Exposed for request-building tests. */
export const responsesAdapterSpec = spec;
