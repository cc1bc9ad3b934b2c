// Auto-retry of transient provider failures: attempts, backoff,
// `auto_retry_start` / `auto_retry_end`, and `abort_retry` cancelling a sleeping backoff.
import { anySignal, isAbortError, sleep } from "../shared/abort.js";
import type { AssistantMessage, SessionEvent } from "../shared/types.js";
import { isRetryableError, retryAfterExceedsMax, retryAfterFrom, retryDelayMs } from "./retry-policy.js";

export interface RetrySettings {
  enabled: boolean;
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export class RetryController {
  private attempt = 0;
  private backoff: AbortController | undefined;

  constructor(
    private readonly settings: () => RetrySettings,
    private readonly emit: (event: SessionEvent) => void,
  ) {}

  get inProgress(): boolean {
    return this.attempt > 0;
  }

  /**
   * Called after a run ended with `last`. Returns true when the failed request should be
   * re-sent (after the backoff has elapsed), false when the error stands.
   */
  async shouldRetry(last: AssistantMessage | undefined, runSignal: AbortSignal, isOverflow: boolean): Promise<boolean> {
    if (!last || last.stopReason !== "error" || isOverflow || !isRetryableError(last)) {
      this.finishFailedSequence(last);
      return false;
    }
    const settings = this.settings();
    if (!settings.enabled) {
      this.finishFailedSequence(last);
      return false;
    }
    this.attempt++;
    if (this.attempt > settings.maxRetries) {
      this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt - 1, finalError: last.errorMessage });
      this.attempt = 0;
      return false;
    }
    const retryAfter = retryAfterFrom(last);
    if (retryAfter !== undefined && retryAfterExceedsMax(retryAfter, settings)) {
      // The server asks for a longer wait than we are willing to sleep: the error stands (its text
      // says why: explainNoWait). A sequence already announced ends; none is begun for this one.
      if (this.attempt > 1) this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt - 1, finalError: last.errorMessage });
      this.attempt = 0;
      return false;
    }
    const delayMs = retryDelayMs(this.attempt, settings, retryAfter);
    this.emit({
      type: "auto_retry_start",
      attempt: this.attempt,
      maxAttempts: settings.maxRetries,
      delayMs,
      errorMessage: last.errorMessage ?? "Unknown error",
    });
    const backoff = new AbortController();
    this.backoff = backoff;
    try {
      await sleep(delayMs, anySignal([backoff.signal, runSignal]));
      return true;
    } catch (err) {
      if (!isAbortError(err)) throw err;
      this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError: "Retry cancelled" });
      this.attempt = 0;
      return false;
    } finally {
      if (this.backoff === backoff) this.backoff = undefined;
    }
  }

  /**
   * A failed reply that will not be retried because the server asked for a longer wait than
   * `retry.maxDelayMs`: its error says so before anyone sees it (the reply is then persisted and
   * emitted with the reason).
   */
  explainNoWait(message: AssistantMessage): void {
    const settings = this.settings();
    if (!settings.enabled || message.stopReason !== "error" || !isRetryableError(message)) return;
    const retryAfter = retryAfterFrom(message);
    if (retryAfter === undefined || !retryAfterExceedsMax(retryAfter, settings)) return;
    const wait = Math.ceil(retryAfter / 1000);
    const max = Math.round(settings.maxDelayMs / 1000);
    message.errorMessage = `${message.errorMessage ?? "Request failed"} (not retried: the server asked to wait ${wait} s, longer than retry.maxDelayMs = ${max} s)`;
  }

  /** An assistant reply ended: a success closes an open retry sequence. */
  onAssistantEnd(message: AssistantMessage): void {
    if (this.attempt === 0) return;
    if (message.stopReason === "error" || message.stopReason === "aborted") return;
    this.emit({ type: "auto_retry_end", success: true, attempt: this.attempt });
    this.attempt = 0;
  }

  /** `abort_retry`: cancels a sleeping backoff; a no-op otherwise. */
  cancelBackoff(): void {
    this.backoff?.abort();
  }

  /** Forget any sequence (new prompt, session switch). */
  reset(): void {
    this.cancelBackoff();
    this.attempt = 0;
  }

  private finishFailedSequence(last: AssistantMessage | undefined): void {
    if (this.attempt === 0) return;
    // A retried request failed with a non-retryable error: the sequence ends here.
    if (last && last.stopReason === "error") {
      this.emit({ type: "auto_retry_end", success: false, attempt: this.attempt, finalError: last.errorMessage });
    }
    this.attempt = 0;
  }
}
