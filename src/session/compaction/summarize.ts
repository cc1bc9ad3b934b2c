// One summarisation call (spec/engine.md §4.7): the transcript goes as text inside a single
// user message, no tools are offered, and the reply's text is the summary.
import type { StreamTimeouts } from "../../providers/stream-watchdog.js";
import type { StreamFn, StreamOptions } from "../../providers/types.js";
import { isAbortError, sleep } from "../../shared/abort.js";
import { PithError, errorMessage } from "../../shared/errors.js";
import type { AgentMessage, AssistantMessage, Model, ThinkingLevel } from "../../shared/types.js";
import { planRetry, type RetryDelaySettings } from "../retry-policy.js";
import { buildSummaryPrompt, SUMMARIZER_SYSTEM_PROMPT } from "./prompts.js";
import { serializeConversation } from "./serialize.js";

export const SHORT_SUMMARY_MAX = 100;

export interface GenerateSummaryOptions {
  stream: StreamFn;
  model: Model;
  apiKey?: string;
  /** The messages to summarise. */
  messages: AgentMessage[];
  /** The summary being updated (iterative compaction). */
  previousSummary?: string;
  /** Appended as "Additional focus: …" (manual `compact`). */
  customInstructions?: string;
  signal: AbortSignal;
  /** Output budget; the provider default when absent. */
  maxTokens?: number;
  /** Passed through to the provider; unset = provider default. */
  thinkingLevel?: ThinkingLevel;
  /** Summarise the prefix of a split turn (different instructions, no previous summary). */
  turnPrefix?: boolean;
  /** Re-send after a transient failure (a stalled stream included), as the retry settings say; absent = one attempt. */
  retry?: RetryDelaySettings & { maxRetries: number };
  /** First-byte and idle limits of each attempt. */
  timeouts?: StreamTimeouts;
}

export interface GeneratedSummary {
  summary: string;
  shortSummary?: string;
}

function aborted(): PithError {
  return new PithError("aborted", "Compaction aborted");
}

/** Runs the request; throws PithError "aborted" on abort, "unavailable" on a provider failure. */
export async function generateSummary(options: GenerateSummaryOptions): Promise<GeneratedSummary> {
  const { signal } = options;
  if (signal.aborted) throw aborted();
  const prompt = buildSummaryPrompt({
    transcript: serializeConversation(options.messages),
    previousSummary: options.previousSummary,
    customInstructions: options.customInstructions,
    turnPrefix: options.turnPrefix,
  });
  const streamOptions: StreamOptions = { signal, ...options.timeouts };
  if (options.apiKey !== undefined) streamOptions.apiKey = options.apiKey;
  if (options.maxTokens !== undefined) streamOptions.maxTokens = options.maxTokens;
  if (options.thinkingLevel !== undefined) streamOptions.thinkingLevel = options.thinkingLevel;
  const context = {
    systemPrompt: SUMMARIZER_SYSTEM_PROMPT,
    messages: [{ role: "user" as const, content: [{ type: "text" as const, text: prompt }], timestamp: Date.now() }],
    tools: [],
  };
  const reply = await replyWithRetries(options, context, streamOptions);
  if (signal.aborted || reply.stopReason === "aborted") throw aborted();
  if (reply.stopReason === "error") {
    throw new PithError("unavailable", `Summarization failed: ${reply.errorMessage ?? "unknown provider error"}`);
  }
  const summary = reply.content
    .flatMap((c) => (c.type === "text" ? [c.text] : []))
    .join("")
    .trim();
  if (summary === "") throw new PithError("unavailable", "Summarization failed: the model returned an empty summary");
  const short = shortSummaryOf(summary);
  return short ? { summary, shortSummary: short } : { summary };
}

/** The summary request, re-sent after transient failures while the retry settings allow. */
async function replyWithRetries(
  options: GenerateSummaryOptions,
  context: Parameters<StreamFn>[1],
  streamOptions: StreamOptions,
): Promise<AssistantMessage> {
  for (let attempt = 1; ; attempt++) {
    const reply = await finalMessage(options, context, streamOptions);
    if (reply.stopReason !== "error" || !options.retry || options.signal.aborted) return reply;
    const plan = planRetry(reply, attempt, options.retry);
    if (!plan.retry) return reply;
    try {
      await sleep(plan.delayMs, options.signal);
    } catch (err) {
      if (isAbortError(err)) throw aborted();
      throw err;
    }
  }
}

async function finalMessage(
  options: GenerateSummaryOptions,
  context: Parameters<StreamFn>[1],
  streamOptions: StreamOptions,
): Promise<AssistantMessage> {
  try {
    for await (const event of options.stream(options.model, context, streamOptions)) {
      if (event.type === "done") return event.message;
      if (event.type === "error") return event.error;
      if (options.signal.aborted) throw aborted();
    }
  } catch (err) {
    if (err instanceof PithError) throw err;
    if (options.signal.aborted) throw aborted();
    throw new PithError("unavailable", `Summarization failed: ${errorMessage(err)}`, { cause: err });
  }
  if (options.signal.aborted) throw aborted();
  throw new PithError("unavailable", "Summarization failed: the stream ended without a reply");
}

/**
 * A one-line display version of a summary: its first line of prose (headings and list
 * markers skipped), cut at the first sentence end, at most 100 characters.
 */
export function shortSummaryOf(summary: string): string | undefined {
  for (const raw of summary.split("\n")) {
    const line = raw
      .trim()
      .replace(/^([-*+]|\d+[.)])\s+/, "")
      .replace(/^\[[ xX]\]\s*/, "")
      .replace(/\*\*/g, "")
      .trim();
    if (line === "" || raw.trim().startsWith("#") || /^<\/?[a-z-]+>$/.test(line) || /^\(none\)$/i.test(line)) continue;
    const sentence = /^(.+?[.!?])(\s|$)/.exec(line)?.[1] ?? line;
    if (sentence.length <= SHORT_SUMMARY_MAX) return sentence;
    return `${sentence.slice(0, SHORT_SUMMARY_MAX - 1).trimEnd()}…`;
  }
  return undefined;
}
