import { describe, expect, it } from "vitest";
import type { AgentSessionEvent } from "../shared/types.js";
import { ProgressTracker, toolArgsPreview } from "./subagent-progress.js";

const usage = (input: number, output: number, total: number, cost: number) => ({ input, output, cacheRead: 0, cacheWrite: 0, totalTokens: total, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: cost } });
const ev = (e: unknown) => e as AgentSessionEvent;

describe("ProgressTracker", () => {
  it("follows tools, requests, tokens, cost and recent output as oh-my-pi's AgentProgress", () => {
    let now = 1000;
    const t = new ProgressTracker({ index: 2, id: "a", agent: "explore", agentSource: "bundled", task: "CTX\n\nA", assignment: "A" }, () => now);
    expect(t.apply(ev({ type: "message_start", message: { role: "assistant", content: [] } }))).toBe(false);
    expect(t.apply(ev({ type: "message_update", assistantMessageEvent: { type: "text_delta", delta: "one\ntw" } }))).toBe(false);
    expect(t.snapshot().recentOutput).toEqual(["tw", "one"]);
    now = 1100;
    expect(t.apply(ev({ type: "tool_execution_start", toolCallId: "c", toolName: "grep", args: { pattern: "x".repeat(80) }, intent: " look " }))).toBe(true);
    let p = t.snapshot();
    expect(p).toMatchObject({ toolCount: 1, currentTool: "grep", currentToolStartMs: 1100, lastIntent: "look", durationMs: 100 });
    expect(p.currentToolArgs).toBe(`${"x".repeat(59)}…`);
    now = 1200;
    t.apply(ev({ type: "tool_execution_end", toolCallId: "c", toolName: "grep", result: { content: [] }, isError: false }));
    t.apply(ev({ type: "message_end", message: { role: "assistant", content: [{ type: "text", text: "final\nanswer" }], usage: usage(100, 20, 150, 0.5) } }));
    t.apply(ev({ type: "message_end", message: { role: "toolResult", content: [] } }));
    p = t.snapshot();
    expect(p.currentTool).toBeUndefined();
    expect(p.recentTools).toEqual([{ tool: "grep", args: `${"x".repeat(59)}…`, endMs: 1200 }]);
    expect(p).toMatchObject({ requests: 1, tokens: 120, contextTokens: 150, cost: 0.5, recentOutput: ["answer", "final"], status: "running", task: "CTX\n\nA", assignment: "A" });
  });

  it("previews the usual argument names", () => {
    expect(toolArgsPreview({ command: "ls -la" })).toBe("ls -la");
    expect(toolArgsPreview({ other: 1 })).toBe("");
    expect(toolArgsPreview(undefined)).toBe("");
  });
});
