// One non-tool request whose reply is read whole (a summary, an image description): the
// stream is drained to its terminal event, the caller's abort signal and the first-byte/idle
// limits of the stream watchdog apply to every attempt, and a failed attempt is re-sent only
// when the caller's retry rule says so. Never throws: the outcome says how it ended.
import { isAbortError, sleep } from "../shared/abort.js";
import { errorMessage } from "../shared/errors.js";
import type { AssistantMessage, Model, Usage } from "../shared/types.js";
import type { StreamTimeouts } from "./stream-watchdog.js";
import type { LlmContext, StreamFn, StreamOptions } from "./types.js";

export interface CompletionRequest {
  stream: StreamFn;
  model: Model;
  /** Offered no tools, whatever the caller passes. */
  context: Omit<LlmContext, "tools">;
  signal: AbortSignal;
  /** Everything else the provider takes (key, output budget, thinking level). */
  options?: Omit<StreamOptions, "signal" | keyof StreamTimeouts>;
  /** First-byte and idle limits of each attempt; unset = none. */
  timeouts?: StreamTimeouts;
  /**
   * After failed attempt `attempt` (1-based): the delay before re-sending, or undefined to let
   * the failure stand. Absent = one attempt.
   */
  retryDelay?(reply: AssistantMessage, attempt: number): number | undefined;
}

export type Completion =
  | { status: "done"; text: string; usage: Usage; message: AssistantMessage }
  /** `error` is the provider's message (or why the stream gave none); `message` is the failed reply when there was one. */
  | { status: "error"; error: string; message?: AssistantMessage }
  | { status: "aborted" };

const ABORTED: Completion = { status: "aborted" };

/** Sends the request (re-sending as `retryDelay` allows) and returns how it ended. */
export async function complete(req: CompletionRequest): Promise<Completion> {
  for (let attempt = 1; ; attempt++) {
    if (req.signal.aborted) return ABORTED;
    const outcome = await attemptOnce(req);
    if (outcome.status !== "error" || !outcome.message || !req.retryDelay) return outcome;
    const delay = req.retryDelay(outcome.message, attempt);
    if (delay === undefined) return outcome;
    try {
      await sleep(delay, req.signal);
    } catch (err) {
      if (isAbortError(err)) return ABORTED;
      throw err;
    }
  }
}

/** The text blocks of a reply, concatenated. */
export function replyText(message: AssistantMessage): string {
  return message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("");
}

async function attemptOnce(req: CompletionRequest): Promise<Completion> {
  const options: StreamOptions = { ...req.options, ...req.timeouts, signal: req.signal };
  const context: LlmContext = { ...req.context, tools: [] };
  try {
    for await (const event of req.stream(req.model, context, options)) {
      if (event.type === "done") return { status: "done", text: replyText(event.message), usage: event.message.usage, message: event.message };
      if (event.type === "error") {
        if (event.reason === "aborted" || req.signal.aborted) return ABORTED;
        return { status: "error", error: event.error.errorMessage ?? "unknown provider error", message: event.error };
      }
      if (req.signal.aborted) return ABORTED;
    }
  } catch (err) {
    if (req.signal.aborted) return ABORTED;
    return { status: "error", error: errorMessage(err) };
  }
  if (req.signal.aborted) return ABORTED;
  return { status: "error", error: "the stream ended without a reply" };
}
