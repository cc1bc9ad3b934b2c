// openai-completions for every `/chat/completions` server other than OpenAI's own: the request
// goes out through the official `openai` client (HTTP, SSE decoding, error bodies), as one JSON
// text built by chat-body.ts; the chunks are folded into pith's events by AssistantBuilder.
// Yields `start`, content events, then exactly one `done` or `error`; never throws once
// iteration has begun.
import OpenAI from "openai";
import { ABORT_MESSAGE } from "../../shared/abort.js";
import { noteBigGarbage } from "../../shared/big-garbage.js";
import type { LanguageModelV3StreamPart } from "@ai-sdk/provider";
import type { AssistantMessageEvent, Model } from "../../shared/types.js";
import { StreamWatchdog } from "../stream-watchdog.js";
import { defaultMaxTokens, thinkingRequest } from "../thinking-request.js";
import type { LlmContext, StreamOptions } from "../types.js";
import { AssistantBuilder } from "./assistant-builder.js";
import { chatBodyParts, chatToolChoice, chatTools, type ChatBodyFields } from "./chat-body.js";
import { ChatChunkReader, type ChatChunk } from "./chat-chunks.js";
import { capturingFetch, type ErrorCapture } from "./capturing-fetch.js";
import type { BodyParts } from "./http-fetch.js";
import { promptCacheKey } from "./prompt-cache.js";
import { completionsCodec } from "./replay.js";
import { terminal } from "./terminal-event.js";

// A client is cheap to reuse and holds the connection pool: keep the most recent few, keyed by
// everything that goes into them.
const CLIENT_CACHE_SIZE = 16;
const clients = new Map<string, OpenAI>();
/** No client-side deadline: the stream watchdog owns the first-byte and idle limits. */
const NO_TIMEOUT_MS = 2 ** 31 - 1;
/** A body part this long is a big message's own JSON (see chat-body.ts). */
const BIG_PART = 256 * 1024;
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };

function client(model: Model, options: StreamOptions): OpenAI {
  const headers = { ...model.headers, ...options.headers };
  const key = JSON.stringify([model.baseUrl, options.apiKey, headers]);
  let c = clients.get(key);
  if (!c) {
    c = new OpenAI({
      baseURL: model.baseUrl,
      // A server without a key gets no Authorization header (the client insists on a key).
      apiKey: options.apiKey || "none",
      organization: null,
      project: null,
      webhookSecret: null,
      maxRetries: 0,
      timeout: NO_TIMEOUT_MS,
      logLevel: "off",
      logger: silent,
      fetch: capturingFetch,
      defaultHeaders: options.apiKey ? headers : { ...headers, Authorization: null },
    });
    if (clients.size >= CLIENT_CACHE_SIZE) clients.delete(clients.keys().next().value as string);
    clients.set(key, c);
  }
  return c;
}

function extraBody(model: Model): Record<string, unknown> | undefined {
  const extra = model.compat?.extraBody;
  return extra && typeof extra === "object" && !Array.isArray(extra) ? (extra as Record<string, unknown>) : undefined;
}

export function chatBodyFields(model: Model, context: LlmContext, options: StreamOptions): ChatBodyFields {
  const thinking = thinkingRequest(model, options.thinkingLevel, options.maxTokens ?? defaultMaxTokens(model));
  const effort = thinking.providerOptions.openaiCompatible?.reasoningEffort;
  const tools = chatTools(context);
  return {
    model: model.id,
    max_tokens: thinking.maxOutputTokens,
    temperature: options.temperature,
    prompt_cache_key: promptCacheKey(model, options),
    reasoning_effort: typeof effort === "string" ? effort : undefined,
    tools,
    tool_choice: tools ? chatToolChoice(options.toolChoice) : undefined,
    extra: extraBody(model),
  };
}

export async function* streamChatCompletions(model: Model, context: LlmContext, options: StreamOptions): AsyncGenerator<AssistantMessageEvent> {
  const builder = new AssistantBuilder(model, completionsCodec, Date.now());
  yield { type: "start", partial: builder.partial };
  // The watchdog's signal fires on the caller's abort and when the peer stops sending.
  const watchdog = new StreamWatchdog(options, options.signal);
  const signal = watchdog.signal;
  const reader = new ChatChunkReader();
  const capture: ErrorCapture = {};
  let iterator: AsyncIterator<ChatChunk> | undefined;
  let failure: unknown;
  try {
    if (signal.aborted) throw new Error(ABORT_MESSAGE);
    const { bodyParts, bigBytes } = requestBody(model, context, options);
    // The client gets an empty placeholder body; httpFetch writes the parts (see http-fetch.ts).
    const stream = await client(model, options).post<AsyncIterable<ChatChunk>>("/chat/completions", {
      body: " ",
      headers: { "content-type": "application/json" },
      stream: true,
      signal,
      fetchOptions: { pithErrors: capture, bodyParts } as object,
    });
    const it = stream[Symbol.asyncIterator]();
    iterator = it;
    // the body is sent: its text (big messages are not kept between requests) is garbage now
    noteBigGarbage(bigBytes);
    for (;;) {
      watchdog.waiting();
      const step = await it.next();
      if (step.done || signal.aborted) break;
      watchdog.received(true);
      for (const event of fold(builder, reader.read(step.value))) yield event;
      if (reader.failure !== undefined || signal.aborted) break;
    }
    // The body is over: no limit applies to the events that close the reply.
    watchdog.stop();
    if (reader.failure === undefined && !signal.aborted) for (const event of fold(builder, reader.end())) yield event;
    failure = reader.failure;
  } catch (err) {
    failure = capture.error ?? unwrap(err);
  } finally {
    watchdog.stop();
  }
  if (iterator && (failure !== undefined || signal.aborted)) void iterator.return?.().catch((err: unknown) => void err);
  yield terminal(builder, options.signal, watchdog.reason, failure);
}

/** The body as a holder httpFetch empties (no frame of this generator keeps the text alive). */
function requestBody(model: Model, context: LlmContext, options: StreamOptions): { bodyParts: BodyParts; bigBytes: number } {
  const parts = chatBodyParts(model, context, chatBodyFields(model, context, options));
  return { bodyParts: { parts }, bigBytes: parts.reduce((n, part) => (part.length >= BIG_PART ? n + part.length : n), 0) };
}

function* fold(builder: AssistantBuilder, parts: LanguageModelV3StreamPart[]): Generator<AssistantMessageEvent> {
  for (const part of parts) yield* builder.handle(part);
}

/**
 * What to report for an error the client threw: a connection error's cause (the network error
 * itself), the fields of an error object the server streamed, anything else as it is.
 */
function unwrap(err: unknown): unknown {
  if (err instanceof OpenAI.APIConnectionError && err.cause instanceof Error) {
    return Object.assign(new Error(`Cannot connect to API: ${err.cause.message}`), { cause: err.cause.cause });
  }
  if (err instanceof OpenAI.APIError && err.status === undefined && err.error && typeof err.error === "object") {
    const e = err.error as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of ["message", "type", "param", "code"]) if (e[k] !== undefined) out[k] = e[k];
    return out;
  }
  return err;
}
