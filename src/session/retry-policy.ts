// Which provider failures are worth re-sending and how long to wait. Pure functions; the retry controller owns the attempts, events and sleeping.
import type { AssistantMessage } from "../shared/types.js";
import { isOverflowErrorText } from "./compaction/overflow.js";

/** Transient failures: overload, throttling, 5xx, dropped or stalled connections. */
const TRANSIENT: readonly RegExp[] = [
  /overloaded/i,
  /provider returned error/i,
  /rate.?limit/i,
  /too many requests/i,
  /\b(429|500|502|503|504|520|522|524|529)\b/,
  /service.?unavailable/i,
  /server.?error/i,
  /internal.?error/i,
  /bad gateway/i,
  /gateway time-?out/i,
  /network.?error/i,
  /connection.?(error|refused|reset|closed|lost)/i,
  /other side closed/i,
  /fetch failed/i,
  /upstream.?connect/i,
  /reset before headers/i,
  /socket hang up/i,
  /\b(ECONNRESET|ECONNREFUSED|ETIMEDOUT|EPIPE|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|UND_ERR_SOCKET)\b/,
  /timed? ?out|timeout/i,
  /\bterminated\b/i,
  /retry delay/i,
  /stream (stall|ended unexpectedly|was cut|closed prematurely)/i,
  /ended without/i,
  /premature(ly)? (close|end)/i,
  /stream envelope error.*before message_start/i,
  /usage.?limit|usage_not_included|limit_reached|quota exceeded|resource.?exhausted/i,
];

/** Failures a retry cannot fix: credentials, permissions, malformed requests. */
const PERMANENT: readonly RegExp[] = [
  /\b(401|403)\b/,
  /unauthori[sz]ed/i,
  /forbidden/i,
  /invalid.?api.?key|incorrect api key|authentication|permission.?denied|api key not valid/i,
  /insufficient_quota|billing/i,
];

/**
 * True for an `error` reply caused by something transient. Never for aborts, auth or
 * permission failures, invalid requests, or context overflow (that is compaction's job).
 */
export function isRetryableError(msg: AssistantMessage): boolean {
  if (msg.stopReason !== "error") return false;
  const text = msg.errorMessage;
  if (!text) return false;
  if (isOverflowErrorText(text)) return false;
  if (PERMANENT.some((p) => p.test(text))) return false;
  return TRANSIENT.some((p) => p.test(text));
}

export interface RetryDelaySettings {
  baseDelayMs: number;
  /** Longest wait pith accepts: a server asking for more is not waited out. */
  maxDelayMs: number;
}

/**
 * Back-off before attempt `attempt` (1-based): baseDelayMs·2^(attempt−1), raised to the
 * server's retry-after when that is longer, and never more than maxDelayMs. A retry-after
 * above maxDelayMs means the server will not accept the request in time: check
 * `retryAfterExceedsMax` first and let the error stand (see `planRetry`).
 */
export function retryDelayMs(attempt: number, settings: RetryDelaySettings, retryAfterMs?: number): number {
  const exponent = Math.max(0, Math.floor(attempt) - 1);
  let delay = settings.baseDelayMs * 2 ** exponent;
  if (retryAfterMs !== undefined && Number.isFinite(retryAfterMs) && retryAfterMs > delay) delay = retryAfterMs;
  return Math.max(0, Math.min(delay, settings.maxDelayMs));
}

/** True when the server asked for a wait longer than pith is willing to sleep. */
export function retryAfterExceedsMax(retryAfterMs: number | undefined, settings: RetryDelaySettings): boolean {
  return retryAfterMs !== undefined && settings.maxDelayMs > 0 && retryAfterMs > settings.maxDelayMs;
}

/** The provider's retry-after hint in ms: `providerPayload.retryAfterMs`, else hints in the error text. */
export function retryAfterFrom(msg: AssistantMessage, now: number = Date.now()): number | undefined {
  const hint = msg.providerPayload?.retryAfterMs;
  if (typeof hint === "number" && Number.isFinite(hint) && hint >= 0) return hint;
  return msg.errorMessage ? retryAfterFromText(msg.errorMessage, now) : undefined;
}

/** Parses `retry-after-ms: N`, `retry-after: <seconds|HTTP date>`, `x-ratelimit-reset-ms: N`, "retry in Ns". */
export function retryAfterFromText(text: string, now: number = Date.now()): number | undefined {
  const ms = /retry-after-ms["']?\s*[:=]\s*["']?(\d+(?:\.\d+)?)/i.exec(text);
  if (ms) return Math.ceil(Number(ms[1]));
  const resetMs = /x-ratelimit-reset-ms["']?\s*[:=]\s*["']?(\d+)/i.exec(text);
  if (resetMs) {
    const n = Number(resetMs[1]);
    return n > 1e12 ? Math.max(0, n - now) : n;
  }
  const after = /retry-after["']?\s*[:=]\s*["']?([^"'\n;}]+)/i.exec(text);
  if (after) {
    const value = after[1].trim();
    if (/^\d/.test(value)) return Math.ceil(Number.parseFloat(value) * 1000);
    const httpDate = /^[A-Za-z]{3}, \d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT/.exec(value);
    const date = httpDate ? Date.parse(httpDate[0]) : Number.NaN;
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  const prose = /(?:retry|try again) (?:in|after) (\d+(?:\.\d+)?)\s*(ms|milliseconds?|s|sec|seconds?)\b/i.exec(text);
  if (prose) return Math.ceil(Number(prose[1]) * (prose[2].toLowerCase().startsWith("m") ? 1 : 1000));
  return undefined;
}

export type RetryPlan = { retry: true; delayMs: number } | { retry: false; reason: "not_retryable" | "exhausted" | "retry_after_too_long" };

/**
 * The whole decision for failure number `attempt` (1-based) of a sequence: retry after
 * `delayMs`, or let the error stand. `maxRetries` bounds the attempts.
 */
export function planRetry(
  msg: AssistantMessage,
  attempt: number,
  settings: RetryDelaySettings & { maxRetries: number },
  now: number = Date.now(),
): RetryPlan {
  if (!isRetryableError(msg)) return { retry: false, reason: "not_retryable" };
  if (attempt > settings.maxRetries) return { retry: false, reason: "exhausted" };
  const retryAfter = retryAfterFrom(msg, now);
  if (retryAfterExceedsMax(retryAfter, settings)) return { retry: false, reason: "retry_after_too_long" };
  return { retry: true, delayMs: retryDelayMs(attempt, settings, retryAfter) };
}
