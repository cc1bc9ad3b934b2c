import { describe, expect, it } from "vitest";
import { assistant, failed, usage } from "../../test/support/compaction.js";
import { firstByteTimeoutMessage, idleTimeoutMessage } from "../providers/stream-watchdog.js";
import { isRetryableError, planRetry, retryAfterExceedsMax, retryAfterFrom, retryAfterFromText, retryDelayMs } from "./retry-policy.js";

describe("isRetryableError", () => {
  const retryable = [
    "overloaded_error: Overloaded",
    "529 {\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\"}}",
    "429 Too Many Requests",
    "Rate limit reached for requests",
    "500 Internal Server Error",
    "502 Bad Gateway",
    "503 Service Unavailable",
    "504 Gateway Timeout",
    "Provider returned error",
    "read ECONNRESET",
    "connect ETIMEDOUT 10.0.0.1:443",
    "socket hang up",
    "TypeError: terminated",
    "fetch failed",
    "Network error",
    "other side closed",
    "stream ended unexpectedly",
    "Request timed out.",
    "upstream connect error or disconnect/reset before headers",
    "RESOURCE_EXHAUSTED: quota exceeded for metric",
    "You have hit your usage limit",
  ];
  for (const text of retryable) {
    it(`retries "${text.slice(0, 50)}"`, () => expect(isRetryableError(failed(text))).toBe(true));
  }

  const permanent = [
    "401 Unauthorized: invalid x-api-key",
    "403 Forbidden",
    "Incorrect API key provided",
    "400 Bad Request: messages.0.content: field required",
    "400 invalid_request_error: max_tokens: 9000 > 8192",
    "prompt is too long: 213462 tokens > 200000 maximum", // overflow: compaction's job
    "Your input exceeds the context window of this model",
    "You exceeded your current quota, please check your plan and billing details.",
  ];
  for (const text of permanent) {
    it(`does not retry "${text.slice(0, 50)}"`, () => expect(isRetryableError(failed(text))).toBe(false));
  }

  it("only considers replies that ended in error with a message", () => {
    expect(isRetryableError(assistant([], { stopReason: "aborted", errorMessage: "Request was aborted" }))).toBe(false);
    expect(isRetryableError(assistant("503 in the text", { stopReason: "stop" }))).toBe(false);
    expect(isRetryableError(assistant([], { stopReason: "error" }))).toBe(false);
    expect(isRetryableError(failed("overloaded", { usage: usage(10) }))).toBe(true);
  });
});

describe("retryDelayMs", () => {
  const settings = { baseDelayMs: 2000, maxDelayMs: 60_000 };

  it("doubles from the base: 2 s, 4 s, 8 s", () => {
    expect([1, 2, 3].map((a) => retryDelayMs(a, settings))).toEqual([2000, 4000, 8000]);
  });

  it("is raised to a longer retry-after, never lowered by a shorter one", () => {
    expect(retryDelayMs(1, settings, 15_000)).toBe(15_000);
    expect(retryDelayMs(3, settings, 100)).toBe(8000);
  });

  it("never exceeds maxDelayMs", () => {
    expect(retryDelayMs(10, settings)).toBe(60_000);
    expect(retryDelayMs(1, settings, 120_000)).toBe(60_000);
    expect(retryAfterExceedsMax(120_000, settings)).toBe(true);
    expect(retryAfterExceedsMax(60_000, settings)).toBe(false);
    expect(retryAfterExceedsMax(undefined, settings)).toBe(false);
  });
});

describe("retryAfterFrom", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("prefers providerPayload.retryAfterMs", () => {
    expect(retryAfterFrom(failed("429 retry-after: 99", { providerPayload: { retryAfterMs: 1500 } }), now)).toBe(1500);
  });

  it("falls back to hints in the error text", () => {
    expect(retryAfterFrom(failed("429 Too Many Requests"), now)).toBeUndefined();
    expect(retryAfterFromText("retry-after-ms: 2500", now)).toBe(2500);
    expect(retryAfterFromText('{"retry-after": "7"}', now)).toBe(7000);
    expect(retryAfterFromText("retry-after: Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterFromText(`x-ratelimit-reset-ms: ${now + 4000}`, now)).toBe(4000);
    expect(retryAfterFromText("x-ratelimit-reset-ms: 700", now)).toBe(700);
    expect(retryAfterFromText("Rate limited. Please try again in 1.5s.", now)).toBe(1500);
  });
});

describe("planRetry", () => {
  const settings = { baseDelayMs: 1000, maxDelayMs: 30_000, maxRetries: 2 };

  it("retries with the back-off until the attempts are used up", () => {
    expect(planRetry(failed("503"), 1, settings)).toEqual({ retry: true, delayMs: 1000 });
    expect(planRetry(failed("503"), 2, settings)).toEqual({ retry: true, delayMs: 2000 });
    expect(planRetry(failed("503"), 3, settings)).toEqual({ retry: false, reason: "exhausted" });
  });

  it("lets the error stand when it is not transient or the server wants a longer wait than allowed", () => {
    expect(planRetry(failed("401 Unauthorized"), 1, settings)).toEqual({ retry: false, reason: "not_retryable" });
    expect(planRetry(failed("429", { providerPayload: { retryAfterMs: 45_000 } }), 1, settings)).toEqual({
      retry: false,
      reason: "retry_after_too_long",
    });
  });
});

describe("stream timeouts", () => {
  it("treats a first-byte or idle timeout as transient", () => {
    for (const text of [firstByteTimeoutMessage(60_000), idleTimeoutMessage(120_000)]) {
      const msg = failed(text);
      expect(isRetryableError(msg)).toBe(true);
      expect(planRetry(msg, 1, { maxRetries: 3, baseDelayMs: 100, maxDelayMs: 1000 })).toEqual({ retry: true, delayMs: 100 });
    }
  });
});
