import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../shared/types.js";
import { computeSessionStats } from "./stats.js";
import { assistant, toolResult, user } from "../../test/support/store.js";

describe("computeSessionStats", () => {
  it("counts roles and tool calls and sums usage including task sub-agent usage", () => {
    const a1 = assistant("calling", { toolCalls: 2, input: 100, output: 20, cost: 0.01 });
    a1.usage.cacheRead = 1000;
    a1.usage.cacheWrite = 50;
    a1.usage.premiumRequests = 1;
    const aborted = assistant("", { input: 7, output: 0, cost: 0.0005 });
    aborted.stopReason = "aborted";
    const task = toolResult("sub done", "call_1");
    task.toolName = "task";
    task.details = { usage: { input: 300, output: 30, cacheRead: 0, cacheWrite: 0, totalTokens: 330, cost: { total: 0.02 } } };
    const notTask = toolResult("x");
    notTask.details = { usage: { input: 999999, cost: { total: 99 } } };
    const messages: AgentMessage[] = [
      { role: "compactionSummary", summary: "s", tokensBefore: 10, timestamp: 1 },
      user("hi"),
      { role: "developer", content: "remind", timestamp: 2 },
      { role: "custom", customType: "c", content: "x", display: false, timestamp: 3 },
      a1,
      notTask,
      task,
      { role: "bashExecution", command: "ls", output: "", exitCode: 0, cancelled: false, truncated: false, timestamp: 4 },
      aborted,
      user("again"),
    ];
    const stats = computeSessionStats(messages, { sessionFile: "/s/f.jsonl", sessionId: "abc" });
    expect(stats).toEqual({
      sessionFile: "/s/f.jsonl",
      sessionId: "abc",
      userMessages: 2,
      assistantMessages: 2,
      toolCalls: 2,
      toolResults: 2,
      totalMessages: 10,
      tokens: { input: 407, output: 50, cacheRead: 1000, cacheWrite: 50, total: 1507 },
      premiumRequests: 1,
      cost: expect.closeTo(0.0305, 10),
      skippedEntries: 0,
    });
  });

  it("omits sessionFile for in-memory sessions", () => {
    const stats = computeSessionStats([], { sessionId: "m" });
    expect("sessionFile" in stats).toBe(false);
    expect(stats.tokens.total).toBe(0);
    expect(JSON.parse(JSON.stringify(stats))).toEqual(stats);
  });
});
