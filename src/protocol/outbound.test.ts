import { Compile } from "typebox/compile";
import { describe, expect, it } from "vitest";
import { emptyUsage, type AgentSessionEvent, type AssistantMessage } from "../shared/types.js";
import { OutboundFrameSchema, type OutboundFrame } from "./outbound.js";
import { RESPONSE_DATA_SCHEMAS, type RpcResponse } from "./responses.js";
import { describeMismatch } from "./mismatch.js";

// Compile-time proof that every session event and response is an outbound frame.
type Assignable<A, B extends A> = B;
export type _Checks = [Assignable<OutboundFrame, AgentSessionEvent>, Assignable<OutboundFrame, RpcResponse>];

const outbound = Compile(OutboundFrameSchema);

const assistant: AssistantMessage = {
  role: "assistant",
  content: [{ type: "text", text: "hi\u2028there" }, { type: "toolCall", id: "t1", name: "read", arguments: { path: "a" } }],
  api: "scripted",
  provider: "fake",
  model: "m",
  usage: emptyUsage(),
  stopReason: "toolUse",
  timestamp: 1,
};

const samples: OutboundFrame[] = [
  { type: "ready", version: "0.1.0" },
  { id: "r1", type: "response", command: "get_state", success: true, data: { x: 1 } },
  { type: "response", command: "parse", success: false, error: "Invalid JSON" },
  { type: "agent_start" },
  { type: "message_update", message: assistant, assistantMessageEvent: { type: "text_delta", contentIndex: 0, delta: "hi", partial: assistant } },
  { type: "turn_end", message: assistant, toolResults: [] },
  { type: "tool_execution_end", toolCallId: "t1", toolName: "read", result: { content: [] }, isError: false },
  { type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 2000, errorMessage: "429" },
  { type: "todo_auto_clear" },
  { type: "extension_ui_request", id: "u1", method: "confirm", title: "t", message: "m", timeout: 10 },
  { type: "extension_ui_request", id: "u2", method: "cancel", targetId: "u1" },
  { type: "host_tool_call", id: "h1", toolCallId: "t1", toolName: "echo", arguments: {} },
  { type: "host_tool_cancel", id: "h2", targetId: "h1" },
  { type: "extension_error", extensionPath: "/x.ts", event: "tool_call", error: "boom" },
];

describe("outbound schemas", () => {
  it("accept every kind of frame pith writes", () => {
    for (const frame of samples) expect(describeMismatch(OutboundFrameSchema, frame) ?? outbound.Check(frame)).toBe(true);
  });

  it("reject frames pith must never write", () => {
    expect(outbound.Check({ type: "agent_end" })).toBe(false);
    expect(outbound.Check({ type: "extension_ui_request", id: "u", method: "select", title: "t" })).toBe(false);
    expect(outbound.Check({ type: "response", command: "x", success: false })).toBe(false);
  });

  it("type response data for the data-less and null-able commands", () => {
    expect(Compile(RESPONSE_DATA_SCHEMAS.prompt).Check(undefined)).toBe(true);
    expect(Compile(RESPONSE_DATA_SCHEMAS.cycle_model).Check(null)).toBe(true);
    expect(Compile(RESPONSE_DATA_SCHEMAS.get_last_assistant_text).Check({})).toBe(true);
    expect(Compile(RESPONSE_DATA_SCHEMAS.new_session).Check({})).toBe(false);
  });
});
