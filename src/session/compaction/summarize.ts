// One summarisation call: the transcript goes as text inside a single
// user message, no tools are offered, and the reply's text is the summary.
import { complete, type CompletionRequest } from "../../providers/complete.js";
import type { StreamTimeouts } from "../../providers/stream-watchdog.js";
import type { StreamFn } from "../../providers/types.js";
import { PithError } from "../../shared/errors.js";
import type { AgentMessage, Model, ThinkingLevel } from "../../shared/types.js";
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
  const { signal, retry } = options;
  if (signal.aborted) throw aborted();
  const prompt = buildSummaryPrompt({
    transcript: serializeConversation(options.messages),
    previousSummary: options.previousSummary,
    customInstructions: options.customInstructions,
    turnPrefix: options.turnPrefix,
  });
  const streamOptions: CompletionRequest["options"] = {};
  if (options.apiKey !== undefined) streamOptions.apiKey = options.apiKey;
  if (options.maxTokens !== undefined) streamOptions.maxTokens = options.maxTokens;
  if (options.thinkingLevel !== undefined) streamOptions.thinkingLevel = options.thinkingLevel;
  const reply = await complete({
    stream: options.stream,
    model: options.model,
    context: { systemPrompt: SUMMARIZER_SYSTEM_PROMPT, messages: [{ role: "user", content: [{ type: "text", text: prompt }], timestamp: Date.now() }] },
    signal,
    options: streamOptions,
    timeouts: options.timeouts,
    // transient failures (a stalled stream included) are re-sent as the retry settings say
    retryDelay: retry && ((msg, attempt) => {
      const plan = planRetry(msg, attempt, retry);
      return plan.retry ? plan.delayMs : undefined;
    }),
  });
  if (reply.status === "aborted" || signal.aborted) throw aborted();
  if (reply.status === "error") throw new PithError("unavailable", `Summarization failed: ${reply.error}`);
  const summary = reply.text.trim();
  if (summary === "") throw new PithError("unavailable", "Summarization failed: the model returned an empty summary");
  const short = shortSummaryOf(summary);
  return short ? { summary, shortSummary: short } : { summary };
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
