import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentMessage, AssistantMessage } from "../shared/types.js";
import { planEntries, replayMessages, UpdateTranslator } from "./session-updates.js";
import { toolKind, toolTitle } from "./tool-calls.js";

const assistant = (content: AssistantMessage["content"], stopReason: AssistantMessage["stopReason"] = "stop"): AssistantMessage =>
  ({ role: "assistant", content, stopReason, api: "x", provider: "p", model: "m", usage: {}, timestamp: 0 }) as unknown as AssistantMessage;

describe("UpdateTranslator", () => {
  it("maps deltas to chunks and a tool call's life to tool_call / tool_call_update with a diff", () => {
    const cwd = mkdtempSync(path.join(tmpdir(), "acp-upd-"));
    const file = path.join(cwd, "f.txt");
    writeFileSync(file, "old\n");
    const t = new UpdateTranslator(cwd);
    const partial = assistant([]);
    expect(t.translate({ type: "message_update", message: partial, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "hi", partial } })).toEqual([
      { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "hi" } },
    ]);
    expect(t.translate({ type: "message_update", message: partial, assistantMessageEvent: { type: "thinking_delta", contentIndex: 0, delta: "hm", partial } })[0]).toMatchObject({
      sessionUpdate: "agent_thought_chunk",
    });
    const args = { path: "f.txt", content: "new\n" };
    const [call] = t.translate({ type: "tool_execution_start", toolCallId: "c1", toolName: "write", args });
    expect(call).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "c1", kind: "edit", status: "in_progress", locations: [{ path: file }], title: "Write f.txt" });
    writeFileSync(file, "new\n");
    const [end] = t.translate({ type: "tool_execution_end", toolCallId: "c1", toolName: "write", result: { content: [{ type: "text", text: "ok" }] }, isError: false });
    expect(end).toEqual({
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "completed",
      content: [{ type: "diff", path: file, oldText: "old\n", newText: "new\n" }, { type: "content", content: { type: "text", text: "ok" } }],
    });
    expect(t.closeOpen()).toEqual([]);
  });

  it("closes calls left open by a cancel as failed", () => {
    const t = new UpdateTranslator("/tmp");
    t.translate({ type: "tool_execution_start", toolCallId: "c2", toolName: "bash", args: { command: "sleep 9" } });
    expect(t.closeOpen()).toEqual([{ sessionUpdate: "tool_call_update", toolCallId: "c2", status: "failed" }]);
  });

  it("turns todo_write results into plans and remembers the last assistant message", () => {
    const t = new UpdateTranslator("/tmp");
    const phases = [{ id: "p1", name: "P", tasks: [{ id: "t1", content: "a", status: "in_progress" }, { id: "t2", content: "b", status: "abandoned" }] }];
    const out = t.translate({ type: "tool_execution_end", toolCallId: "c3", toolName: "todo_write", result: { content: [], details: { phases } }, isError: false });
    expect(out[1]).toEqual({ sessionUpdate: "plan", entries: [{ content: "a", priority: "medium", status: "in_progress" }] });
    const msg = assistant([{ type: "text", text: "x" }], "length");
    t.translate({ type: "message_end", message: msg });
    expect(t.lastAssistantMessage()?.stopReason).toBe("length");
  });
});

describe("replayMessages", () => {
  it("replays user, thinking, tool call, result and text in order", () => {
    const messages = [
      { role: "user", content: "q", timestamp: 0 },
      assistant([{ type: "thinking", thinking: "t" }, { type: "toolCall", id: "c", name: "read", arguments: { path: "a" } }], "toolUse"),
      { role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: "A" }], isError: false, timestamp: 0 },
      assistant([{ type: "text", text: "done" }]),
    ] as unknown as AgentMessage[];
    expect(replayMessages(messages, "/w").map((u) => u.sessionUpdate)).toEqual(["user_message_chunk", "agent_thought_chunk", "tool_call", "tool_call_update", "agent_message_chunk"]);
  });
});

describe("deferred tools (call_tool)", () => {
  it("shows a call through call_tool as the tool it runs, live and on replay", () => {
    const t = new UpdateTranslator("/w");
    const toolCall = { type: "toolCall" as const, id: "c9", name: "call_tool", arguments: { name: "ls", arguments: { path: "src" } } };
    const partial = assistant([toolCall]);
    const [live] = t.translate({ type: "message_update", message: partial, assistantMessageEvent: { type: "toolcall_end", contentIndex: 0, toolCall, partial } });
    expect(live).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "c9", kind: toolKind("ls"), title: toolTitle("ls", { path: "src" }, "/w"), rawInput: { path: "src" } });
    const replayed = replayMessages([assistant([toolCall], "toolUse")], "/w");
    expect(replayed[0]).toMatchObject({ sessionUpdate: "tool_call", toolCallId: "c9", kind: toolKind("ls"), rawInput: { path: "src" } });
  });
});

describe("tool mapping", () => {
  it("kinds and titles", () => {
    expect(["read", "edit", "bash", "grep", "mcp__x__y"].map(toolKind)).toEqual(["read", "edit", "execute", "search", "other"]);
    expect(toolTitle("bash", { command: "npm   test" }, "/w")).toBe("Run npm test");
    expect(planEntries([{ tasks: [{ content: 1 }] }])).toEqual([]);
  });
});
