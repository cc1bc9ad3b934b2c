import { describe, expect, it } from "vitest";
import { describeProviderError, retryAfterFromHeaders } from "./http-error.js";

function apiError(statusCode: number, responseBody?: string, responseHeaders?: Record<string, string>, cause?: unknown) {
  return Object.assign(new Error("API call failed"), { statusCode, responseBody, responseHeaders, cause });
}

describe("describeProviderError", () => {
  it("formats HTTP errors as '<status> <body>' and '(no body)' when empty", () => {
    expect(describeProviderError(apiError(429, '{"error":"x"}')).message).toBe('429 {"error":"x"}');
    expect(describeProviderError(apiError(413, "")).message).toBe("413 status code (no body)");
  });

  it("reports a broken successful body by its cause", () => {
    const cause = Object.assign(new TypeError("terminated"), { cause: new Error("other side closed") });
    expect(describeProviderError(apiError(200, undefined, undefined, cause)).message).toBe("terminated: other side closed");
  });

  it("describes stream error objects with their provider text", () => {
    expect(describeProviderError({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }).message).toMatch(/^overloaded_error: Overloaded/);
  });
});

describe("retryAfterFromHeaders", () => {
  it("prefers retry-after-ms, then seconds, then an HTTP date", () => {
    expect(retryAfterFromHeaders({ "retry-after-ms": "250", "retry-after": "9" })).toBe(250);
    expect(retryAfterFromHeaders({ "Retry-After": "2" })).toBe(2000);
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(retryAfterFromHeaders({ "retry-after": "Thu, 01 Jan 2026 00:00:05 GMT" }, now)).toBe(5000);
    expect(retryAfterFromHeaders({ "retry-after": "soon" })).toBeUndefined();
    expect(retryAfterFromHeaders(undefined)).toBeUndefined();
  });
});
