// anthropic-messages over @ai-sdk/anthropic. Extended thinking signatures and redacted
// thinking round-trip through providerOptions.anthropic.
import { createAnthropic } from "@ai-sdk/anthropic";
import type { StreamFn } from "../types.js";
import { requestHeaders, streamWithAiSdk, type AdapterSpec } from "./ai-sdk-stream.js";
import { safeToolCallId } from "./convert-messages.js";
import { placeAnthropicBreakpoints } from "./prompt-cache.js";
import { anthropicCodec } from "./replay.js";

/** The AI SDK appends `/messages`; pi-style base URLs (`https://api.anthropic.com`) omit `/v1`. */
export function anthropicBaseUrl(baseUrl: string): string {
  const trimmed = baseUrl.replace(/\/+$/, "");
  return /\/v1$/.test(trimmed) ? trimmed : `${trimmed}/v1`;
}

const spec: AdapterSpec = {
  codec: anthropicCodec,
  normalizeToolCallId: safeToolCallId,
  createModel(model, options) {
    const key = options.apiKey ?? "";
    // OAuth access tokens go out as a bearer token instead of x-api-key.
    const auth = key.startsWith("sk-ant-oat") ? { authToken: key } : { apiKey: key };
    const provider = createAnthropic({ baseURL: anthropicBaseUrl(model.baseUrl), headers: requestHeaders(model, options), ...auth });
    return provider.messages(model.id);
  },
  finishCall(call, _model, options) {
    placeAnthropicBreakpoints(call, options.cacheRetention);
  },
};

export const streamAnthropic: StreamFn = (model, context, options) => streamWithAiSdk(spec, model, context, options);
