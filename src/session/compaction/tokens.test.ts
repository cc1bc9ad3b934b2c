import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../shared/types.js";
import { assistant, bash, call, custom, failed, result, usage, user } from "../../../test/support/compaction.js";
import { compactionThreshold, contextTokens, estimateTokens, IMAGE_TOKENS, shouldCompact } from "./tokens.js";

const img = { type: "image" as const, data: "AAAA", mimeType: "image/png" };

describe("estimateTokens", () => {
  it("counts characters / 4, rounded up, per role", () => {
    expect(estimateTokens(user("12345"))).toBe(2);
    expect(estimateTokens({ role: "user", content: "abcd", timestamp: 0 })).toBe(1);
    expect(estimateTokens({ role: "developer", content: "abcdefgh", timestamp: 0 })).toBe(2);
    expect(estimateTokens(custom("abcdefghi"))).toBe(3);
    expect(estimateTokens(bash("ls", "ab"))).toBe(1);
    expect(estimateTokens(bash("ls", "ab", { excludeFromContext: true }))).toBe(0);
    expect(estimateTokens({ role: "compactionSummary", summary: "x".repeat(40), tokensBefore: 1, timestamp: 0 })).toBe(10);
    expect(estimateTokens({ role: "branchSummary", summary: "x".repeat(41), fromId: "r", timestamp: 0 })).toBe(11);
  });

  it("counts assistant text, thinking, tool names and argument JSON", () => {
    const a = assistant([
      { type: "thinking", thinking: "hmm." },
      { type: "text", text: "ok" },
      call("c", "read", { path: "/a" }),
    ]);
    const chars = 4 + 2 + "read".length + JSON.stringify({ path: "/a" }).length;
    expect(estimateTokens(a)).toBe(Math.ceil(chars / 4));
  });

  it("adds a fixed amount per image", () => {
    const r = result("c", "abcd", { content: [{ type: "text", text: "abcd" }, img, img] });
    expect(estimateTokens(r)).toBe(1 + 2 * IMAGE_TOKENS);
    expect(estimateTokens({ role: "user", content: [img], timestamp: 0 })).toBe(IMAGE_TOKENS);
  });
});

describe("contextTokens", () => {
  it("estimates everything when no reply reported usage", () => {
    const history = [user("x".repeat(400)), assistant("y".repeat(40))];
    expect(contextTokens(history)).toBe(100 + 10);
  });

  it("uses the last successful usage plus estimates of what followed", () => {
    const history: AgentMessage[] = [
      user("x".repeat(4000)),
      assistant("first", { usage: usage(500, 20, 100, 0) }),
      user("x".repeat(40)),
      failed("overloaded", { usage: usage(99999) }),
      result("c", "y".repeat(8)),
    ];
    expect(contextTokens(history)).toBe(620 + 10 + estimateTokens(history[3]) + 2);
  });

  it("ignores usage of replies kept from before the latest compaction", () => {
    const stale = assistant("kept", { usage: usage(150_000), timestamp: 10 });
    const summary: AgentMessage = { role: "compactionSummary", summary: "s".repeat(400), tokensBefore: 150_000, timestamp: 20 };
    expect(contextTokens([summary, stale])).toBe(100 + 1);
    const fresh = assistant("new", { usage: usage(3000, 10), timestamp: 30 });
    expect(contextTokens([summary, stale, fresh, user("abcd")])).toBe(3010 + 1);
  });
});

describe("shouldCompact / compactionThreshold", () => {
  const defaults = { reserveTokens: 16384 };

  it("defaults to window − max(15 % of the window, reserveTokens)", () => {
    expect(compactionThreshold(200_000, defaults)).toBe(170_000);
    expect(compactionThreshold(128_000, defaults)).toBe(108_800);
    expect(compactionThreshold(32_000, defaults)).toBe(15_616);
    expect(shouldCompact(170_000, 200_000, defaults)).toBe(false);
    expect(shouldCompact(170_001, 200_000, defaults)).toBe(true);
  });

  it("honours thresholdTokens (clamped) over thresholdPercent (clamped 1–99)", () => {
    expect(compactionThreshold(100_000, { ...defaults, thresholdTokens: 50_000, thresholdPercent: 10 })).toBe(50_000);
    expect(compactionThreshold(100_000, { ...defaults, thresholdTokens: 500_000 })).toBe(99_999);
    expect(compactionThreshold(100_000, { ...defaults, thresholdPercent: 60 })).toBe(60_000);
    expect(compactionThreshold(100_000, { ...defaults, thresholdPercent: 150 })).toBe(99_000);
    expect(compactionThreshold(100_000, { ...defaults, thresholdTokens: -1, thresholdPercent: -1 })).toBe(83_616);
  });

  it("never compacts when disabled or without a window", () => {
    expect(shouldCompact(1e9, 200_000, { ...defaults, enabled: false })).toBe(false);
    expect(shouldCompact(1e9, 0, defaults)).toBe(false);
  });
});
