// Runs one LanguageModelV3.doStream() call (no `ai` streamText, no SDK retries) and turns it
// into pith's AssistantMessageEvent stream: `start`, content events, then exactly one `done`
// or `error`. Never throws once iteration has begun.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3StreamPart } from "@ai-sdk/provider";
import { ABORT_MESSAGE } from "../../shared/abort.js";
import type { AssistantMessageEvent, Model } from "../../shared/types.js";
import { thinkingRequest, defaultMaxTokens } from "../thinking-request.js";
import type { LlmContext, StreamOptions } from "../types.js";
import { AssistantBuilder } from "./assistant-builder.js";
import { convertPrompt, convertToolChoice, convertTools } from "./convert-messages.js";
import { StreamWatchdog } from "../stream-watchdog.js";
import type { PartOptions, ReplayCodec } from "./replay.js";
import { terminal } from "./terminal-event.js";

export interface AdapterSpec {
  codec: ReplayCodec;
  createModel(model: Model, options: StreamOptions): LanguageModelV3;
  normalizeToolCallId?: (id: string) => string;
  /** Provider options that do not depend on thinking (merged under the thinking options). */
  baseProviderOptions?(model: Model, options: StreamOptions): PartOptions;
  /** Last touches on the built call (Anthropic's cache breakpoints); may change it in place. */
  finishCall?(call: LanguageModelV3CallOptions, model: Model, options: StreamOptions): void;
}


// AI SDK model objects are costly to build (schemas, fetch wrappers) and are reusable across
// calls: keep the most recent few, keyed by everything that goes into them.
const MODEL_CACHE_SIZE = 16;
const modelCache = new Map<string, LanguageModelV3>();

function cachedModel(spec: AdapterSpec, model: Model, options: StreamOptions): LanguageModelV3 {
  const key = JSON.stringify([model.api, model.provider, model.id, model.baseUrl, model.headers, model.compat, options.apiKey, options.headers]);
  let sdkModel = modelCache.get(key);
  if (!sdkModel) {
    sdkModel = spec.createModel(model, options);
    if (modelCache.size >= MODEL_CACHE_SIZE) modelCache.delete(modelCache.keys().next().value as string);
    modelCache.set(key, sdkModel);
  }
  return sdkModel;
}

export function buildCallOptions(spec: AdapterSpec, model: Model, context: LlmContext, options: StreamOptions): LanguageModelV3CallOptions {
  const thinking = thinkingRequest(model, options.thinkingLevel, options.maxTokens ?? defaultMaxTokens(model));
  const providerOptions = mergeOptions(spec.baseProviderOptions?.(model, options) ?? {}, thinking.providerOptions);
  const tools = convertTools(context.tools);
  const call: LanguageModelV3CallOptions = {
    prompt: convertPrompt(model, context, { codec: spec.codec, normalizeToolCallId: spec.normalizeToolCallId }),
    maxOutputTokens: thinking.maxOutputTokens,
    abortSignal: options.signal,
  };
  if (tools.length > 0) call.tools = tools;
  const toolChoice = convertToolChoice(options.toolChoice);
  if (toolChoice && tools.length > 0) call.toolChoice = toolChoice;
  if (options.temperature !== undefined) call.temperature = options.temperature;
  if (Object.keys(providerOptions).length > 0) call.providerOptions = providerOptions as LanguageModelV3CallOptions["providerOptions"];
  spec.finishCall?.(call, model, options);
  return call;
}

function mergeOptions(a: PartOptions, b: Record<string, Record<string, unknown>>): PartOptions {
  const out: PartOptions = { ...a };
  for (const [ns, v] of Object.entries(b)) out[ns] = { ...out[ns], ...v };
  return out;
}

/** Request headers: the model's configured headers, then the per-call ones. */
export function requestHeaders(model: Model, options: StreamOptions): Record<string, string> {
  return { ...model.headers, ...options.headers };
}

export async function* streamWithAiSdk(
  spec: AdapterSpec,
  model: Model,
  context: LlmContext,
  options: StreamOptions,
): AsyncGenerator<AssistantMessageEvent> {
  const startedAt = Date.now();
  const builder = new AssistantBuilder(model, spec.codec, startedAt);
  yield { type: "start", partial: builder.partial };
  // The watchdog's signal fires on the caller's abort and when the peer stops sending.
  const watchdog = new StreamWatchdog(options, options.signal);
  const signal = watchdog.signal;
  let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | undefined;
  const onAbort = () => void reader?.cancel().catch((err: unknown) => void err);
  signal.addEventListener("abort", onAbort, { once: true });
  let failure: unknown;
  try {
    if (signal.aborted) throw new Error(ABORT_MESSAGE);
    const result = await cachedModel(spec, model, options).doStream(buildCallOptions(spec, model, context, { ...options, signal }));
    reader = result.stream.getReader();
    if (signal.aborted) onAbort();
    for (;;) {
      watchdog.waiting();
      const { done, value } = await reader.read();
      if (done) break;
      // `stream-start` is made by the SDK itself; every other part is the peer's data.
      watchdog.received(value.type !== "stream-start");
      if (value.type === "error") {
        failure = value.error;
        break;
      }
      for (const event of builder.handle(value)) yield event;
      if (signal.aborted) break;
    }
  } catch (err) {
    failure = err;
  } finally {
    watchdog.stop();
    signal.removeEventListener("abort", onAbort);
  }
  if (failure !== undefined && reader) void reader.cancel().catch((err: unknown) => void err);
  yield terminal(builder, options.signal, watchdog.reason, failure);
}
