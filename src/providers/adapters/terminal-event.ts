// The one terminal event of a provider stream, from how it ended: the caller's abort, a
// watchdog limit, a failure (HTTP status, network, an error the server streamed), or the
// finish the builder saw.
import { ABORT_MESSAGE } from "../../shared/abort.js";
import type { AssistantMessageEvent } from "../../shared/types.js";
import { STREAM_ENDED_UNEXPECTEDLY, type AssistantBuilder } from "./assistant-builder.js";
import { describeProviderError } from "./http-error.js";

export function terminal(builder: AssistantBuilder, signal: AbortSignal | undefined, timedOut: string | undefined, failure: unknown): AssistantMessageEvent {
  if (signal?.aborted) {
    return { type: "error", reason: "aborted", error: builder.finalMessage("aborted", { errorMessage: ABORT_MESSAGE }) };
  }
  if (timedOut !== undefined) return { type: "error", reason: "error", error: builder.finalMessage("error", { errorMessage: timedOut }) };
  if (failure !== undefined) {
    const info = describeProviderError(failure);
    if (/stream ended without/i.test(info.message)) info.message = `${STREAM_ENDED_UNEXPECTEDLY} (${info.message})`;
    const extra = info.retryAfterMs !== undefined ? { providerPayload: { retryAfterMs: info.retryAfterMs } } : {};
    return { type: "error", reason: "error", error: builder.finalMessage("error", { errorMessage: info.message, ...extra }) };
  }
  const finish = builder.finish;
  if (!finish) return { type: "error", reason: "error", error: builder.finalMessage("error", { errorMessage: STREAM_ENDED_UNEXPECTEDLY }) };
  if ("error" in finish) return { type: "error", reason: "error", error: builder.finalMessage("error", { errorMessage: finish.error }) };
  return { type: "done", reason: finish.reason, message: builder.finalMessage(finish.reason) };
}
