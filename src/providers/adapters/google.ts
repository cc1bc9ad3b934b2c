// google-generative-ai over @ai-sdk/google. Thought signatures round-trip through
// providerOptions.google.thoughtSignature on reasoning and tool-call parts.
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import type { StreamFn } from "../types.js";
import { requestHeaders, streamWithAiSdk, type AdapterSpec } from "./ai-sdk-stream.js";
import { googleCodec } from "./replay.js";

const spec: AdapterSpec = {
  codec: googleCodec,
  createModel(model, options) {
    return createGoogleGenerativeAI({ baseURL: model.baseUrl, apiKey: options.apiKey ?? "", headers: requestHeaders(model, options) }).languageModel(model.id);
  },
};

export const streamGoogle: StreamFn = (model, context, options) => streamWithAiSdk(spec, model, context, options);

/** Exposed for conversion tests. */
export const googleAdapterSpec = spec;
