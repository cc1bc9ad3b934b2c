import { expect, it } from "vitest";
import type { AgentEvent, AssistantMessage } from "../shared/types.js";
import { harness, scriptedStream, trace, user } from "../../test/support/agent.js";
import { runAgentLoop } from "./loop.js";

function endOf(events: AgentEvent[]) {
  const last = events.at(-1);
  if (last?.type !== "agent_end") throw new Error(`last event is ${last?.type}`);
  return last;
}

it("runAgentLoop: plain runs: emits sequence (a) for a plain text reply", async () => {
  const { stream, calls } = scriptedStream([{ steps: [{ text: "Hi!", chunks: ["H", "i!"] }] }]);
  const h = harness({ stream, prompts: [user("Say hi")] });
  const added = await runAgentLoop(h.input, h.config);
  expect(trace(h.events)).toEqual([
    "agent_start",
    "turn_start",
    "message_start user",
    "message_end user",
    "message_start assistant",
    "update text_start",
    "update text_delta",
    "update text_delta",
    "update text_end",
    "message_end assistant",
    "turn_end",
    "agent_end",
  ]);
  const start = h.events[4] as { message: AssistantMessage };
  expect(start.message.content).toEqual([]);
  expect(start.message.stopReason).toBe("stop");
  const end = h.events[9] as { message: AssistantMessage };
  expect(end.message.content).toEqual([{ type: "text", text: "Hi!" }]);
  expect(end.message.usage.totalTokens).toBe(15);
  expect(h.events[10]).toEqual({ type: "turn_end", message: end.message, toolResults: [] });
  expect(endOf(h.events).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(added).toEqual(h.input.messages);
  expect(calls).toHaveLength(1);
  expect(calls[0]?.context.systemPrompt).toBe("system");
  expect(calls[0]?.context.messages).toEqual([user("Say hi")]);
  expect(calls[0]?.options.maxTokens).toBe(100);
  expect(calls[0]?.options.signal).toBeInstanceOf(AbortSignal);
});

it("runAgentLoop: plain runs: message_update carries the deltas and a snapshot of the partial at that moment", async () => {
  const { stream } = scriptedStream([{ steps: [{ text: "ab", chunks: ["a", "b"] }] }]);
  const h = harness({ stream });
  await runAgentLoop(h.input, h.config);
  const updates = h.events.filter((e) => e.type === "message_update");
  const second = updates[2];
  if (second?.type !== "message_update") throw new Error("no update");
  expect(second.assistantMessageEvent).toMatchObject({ type: "text_delta", delta: "b", contentIndex: 0 });
  expect(second.message.content).toEqual([{ type: "text", text: "ab" }]);
  expect(second.assistantMessageEvent.partial).toEqual(second.message);
});

it("runAgentLoop: plain runs: streams thinking before text", async () => {
  const { stream } = scriptedStream([{ steps: [{ thinking: "hmm" }, { text: "done" }] }]);
  const h = harness({ stream });
  await runAgentLoop(h.input, h.config);
  expect(trace(h.events).filter((t) => t.startsWith("update"))).toEqual([
    "update thinking_start",
    "update thinking_delta",
    "update thinking_end",
    "update text_start",
    "update text_delta",
    "update text_end",
  ]);
  const final = h.input.messages.at(-1) as AssistantMessage;
  expect(final.content).toEqual([
    { type: "thinking", thinking: "hmm" },
    { type: "text", text: "done" },
  ]);
});

it("runAgentLoop: plain runs: a continue run (no prompts) goes straight to the model call", async () => {
  const { stream, calls } = scriptedStream([{ steps: [{ text: "again" }] }]);
  const before = [user("earlier")];
  const h = harness({ stream, prompts: [], messages: before });
  const added = await runAgentLoop(h.input, h.config);
  expect(trace(h.events).slice(0, 3)).toEqual(["agent_start", "turn_start", "message_start assistant"]);
  expect(calls[0]?.context.messages).toEqual([user("earlier")]);
  expect(added.map((m) => m.role)).toEqual(["assistant"]);
  expect(h.input.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
});

it("runAgentLoop: plain runs: reads model, system prompt and tools before every call and passes transformContext's output", async () => {
  const { stream, calls } = scriptedStream([
    { steps: [{ toolCall: { id: "c1", name: "nope" } }] },
    { steps: [{ text: "ok" }] },
  ]);
  let n = 0;
  const requests: number[] = [];
  const h = harness({
    stream,
    config: {
      getSystemPrompt: () => `system ${++n}`,
      transformContext: async (messages) => [user("injected"), ...messages],
      onRequest: (ctx) => requests.push(ctx.messages.length),
    },
  });
  await runAgentLoop(h.input, h.config);
  expect(calls.map((c) => c.context.systemPrompt)).toEqual(["system 1", "system 2"]);
  expect(calls[1]?.context.messages[0]).toEqual(user("injected"));
  expect(requests).toEqual([2, 4]);
  // transformContext never rewrites the real context
  expect(h.input.messages[0]).toEqual(user("hi"));
});

it("runAgentLoop: queues: steering queued before the run is delivered in the same first turn", async () => {
  const { stream, calls } = scriptedStream([{ steps: [{ text: "ok" }] }]);
  const h = harness({ stream });
  h.steering.push(user("steer early"));
  await runAgentLoop(h.input, h.config);
  expect(trace(h.events).slice(0, 7)).toEqual([
    "agent_start",
    "turn_start",
    "message_start user",
    "message_end user",
    "message_start user",
    "message_end user",
    "message_start assistant",
  ]);
  expect(trace(h.events).filter((t) => t === "turn_start")).toHaveLength(1);
  expect(calls[0]?.context.messages).toEqual([user("hi"), user("steer early")]);
});

it("runAgentLoop: queues: follow-ups are polled only when the run would stop, and continue the run", async () => {
  const { stream, calls } = scriptedStream([
    { steps: [{ toolCall: { id: "c1", name: "t" } }] },
    { steps: [{ text: "first stop" }] },
    { steps: [{ text: "second stop" }] },
  ]);
  const h = harness({ stream });
  h.followUps.push(user("follow"));
  await runAgentLoop(h.input, h.config);
  // start poll, after turn 1 (tool calls), after turn 2 → would stop → follow-up, after turn 3 → stop
  expect(h.polls).toEqual(["steering", "steering", "steering", "followUp", "steering", "followUp"]);
  expect(calls).toHaveLength(3);
  expect(calls[2]?.context.messages.at(-1)).toEqual(user("follow"));
  const t = trace(h.events);
  const followStart = t.lastIndexOf("turn_start");
  expect(t.slice(followStart, followStart + 4)).toEqual([
    "turn_start",
    "message_start user",
    "message_end user",
    "message_start assistant",
  ]);
  expect(endOf(h.events).messages.map((m) => m.role)).toEqual([
    "user",
    "assistant",
    "toolResult",
    "assistant",
    "user",
    "assistant",
  ]);
});

it("runAgentLoop: queues: steering after a text-only turn prevents the stop (wait mode)", async () => {
  const { stream, calls } = scriptedStream([{ steps: [{ text: "a" }] }, { steps: [{ text: "b" }] }]);
  const h = harness({
    stream,
    onEvent: (e, hh) => {
      if (e.type === "message_end" && e.message.role === "assistant" && hh.steering.length === 0 && calls.length === 1)
        hh.steering.push(user("more"));
    },
  });
  await runAgentLoop(h.input, h.config);
  expect(calls).toHaveLength(2);
  expect(calls[1]?.context.messages.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
  expect(h.polls).toEqual(["steering", "steering", "steering", "followUp"]);
});

it("runAgentLoop: provider failures: emits sequence (d) for a provider error, with synthetic results for streamed tool calls", async () => {
  const { stream, calls } = scriptedStream([
    { steps: [{ toolCall: { id: "c1", name: "t", args: { a: 1 } } }, { fail: "400 bad request" }] },
  ]);
  const h = harness({ stream });
  h.followUps.push(user("never polled"));
  await runAgentLoop(h.input, h.config);
  expect(trace(h.events)).toEqual([
    "agent_start",
    "turn_start",
    "message_start user",
    "message_end user",
    "message_start assistant",
    "update toolcall_start",
    "update toolcall_delta",
    "update toolcall_end",
    "message_end assistant",
    "tool_execution_start c1",
    "tool_execution_end c1",
    "message_start toolResult c1",
    "message_end toolResult c1",
    "turn_end",
    "agent_end",
  ]);
  const end = h.events.find((e) => e.type === "tool_execution_end");
  expect(end).toEqual({
    type: "tool_execution_end",
    toolCallId: "c1",
    toolName: "t",
    result: { content: [{ type: "text", text: "Tool execution failed due to an error: 400 bad request" }], details: {} },
    isError: true,
  });
  const assistant = h.input.messages[1] as AssistantMessage;
  expect(assistant.stopReason).toBe("error");
  expect(assistant.errorMessage).toBe("400 bad request");
  expect(calls).toHaveLength(1);
  expect(h.polls).toEqual(["steering"]);
  const turnEnd = h.events.find((e) => e.type === "turn_end");
  expect(turnEnd?.type === "turn_end" && turnEnd.toolResults.map((r) => r.toolCallId)).toEqual(["c1"]);
});

it("runAgentLoop: provider failures: a stream function that throws when called still yields message_start/end of an error message", async () => {
  const h = harness({
    stream: () => {
      throw new Error("constructor exploded");
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(trace(h.events)).toEqual([
    "agent_start",
    "turn_start",
    "message_start user",
    "message_end user",
    "message_start assistant",
    "message_end assistant",
    "turn_end",
    "agent_end",
  ]);
  const start = h.events[4] as { message: AssistantMessage };
  expect(start.message).toMatchObject({ content: [], stopReason: "stop", provider: "scripted" });
  expect(added[1]).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: "constructor exploded" });
});

it("runAgentLoop: provider failures: an iterator that throws mid-stream keeps the streamed content in the error message", async () => {
  const { stream } = scriptedStream([{ steps: [{ text: "partial" }, { throws: "socket reset" }] }]);
  const h = harness({ stream });
  const added = await runAgentLoop(h.input, h.config);
  expect(added[1]).toMatchObject({
    stopReason: "error",
    errorMessage: "socket reset",
    content: [{ type: "text", text: "partial" }],
  });
  expect(endOf(h.events).messages).toHaveLength(2);
});

it("runAgentLoop: provider failures: a stream that ends without a terminal event becomes an error message", async () => {
  const { stream } = scriptedStream([{ steps: [{ text: "x" }, { cut: true }] }]);
  const h = harness({ stream });
  const added = await runAgentLoop(h.input, h.config);
  expect(added[1]).toMatchObject({ stopReason: "error", errorMessage: "Provider stream ended without a final message" });
});

it("runAgentLoop: provider failures: content events without a start event still get a message_start first", async () => {
  const { stream } = scriptedStream([{ noStart: true, steps: [{ text: "x" }] }]);
  const h = harness({ stream });
  await runAgentLoop(h.input, h.config);
  expect(trace(h.events).slice(4, 6)).toEqual(["message_start assistant", "update text_start"]);
  expect(h.events[4]).toMatchObject({ message: { role: "assistant", content: [] } });
});

it("runAgentLoop: provider failures: an aborted message is detached from the provider's partial", async () => {
  const { stream } = scriptedStream([{ steps: [{ text: "ab", chunks: ["a", "b"] }, { hang: true }] }]);
  let partial: AssistantMessage | undefined;
  const h = harness({
    stream,
    onEvent: (e, hh) => {
      if (e.type === "message_update" && e.assistantMessageEvent.type === "text_end") {
        partial = e.message;
        hh.controller.abort();
      }
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  const final = added.at(-1) as AssistantMessage;
  expect(final).not.toBe(partial);
  partial?.content.push({ type: "text", text: "late" });
  expect(final.content).toEqual([{ type: "text", text: "ab" }]);
});

it("runAgentLoop: provider failures: transformContext rejecting becomes an error assistant message", async () => {
  const { stream, calls } = scriptedStream([{ steps: [{ text: "x" }] }]);
  const h = harness({ stream, config: { transformContext: async () => Promise.reject(new Error("ext broke")) } });
  const added = await runAgentLoop(h.input, h.config);
  expect(calls).toHaveLength(0);
  expect(added[1]).toMatchObject({ stopReason: "error", errorMessage: "ext broke" });
});

it("runAgentLoop: provider failures: an exception escaping the loop ends with agent_end carrying one synthetic error message", async () => {
  const { stream } = scriptedStream([{ steps: [{ toolCall: { id: "c1", name: "t" } }] }]);
  const h = harness({
    stream,
    config: {
      pollSteering: () => {
        throw new Error("queue broke");
      },
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(added).toHaveLength(1);
  expect(added[0]).toMatchObject({
    role: "assistant",
    content: [{ type: "text", text: "" }],
    stopReason: "error",
    errorMessage: "queue broke",
  });
  expect(endOf(h.events).messages).toEqual(added);
  expect(h.input.messages.at(-1)).toEqual(added[0]);
});

it("runAgentLoop: provider failures: a listener throwing mid-batch still leaves one result per tool call in the context", async () => {
  const { stream } = scriptedStream([{ steps: [{ toolCall: { id: "c1", name: "t" } }, { toolCall: { id: "c2", name: "t" } }] }]);
  let thrown = false;
  const h = harness({
    stream,
    onEvent: (e) => {
      if (e.type === "tool_execution_start" && !thrown) {
        thrown = true;
        throw new Error("listener broke");
      }
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(added[0]).toMatchObject({ stopReason: "error", errorMessage: "listener broke" });
  const ids = h.input.messages.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : []));
  expect(ids.sort()).toEqual(["c1", "c2"]);
  const assistantAt = h.input.messages.findIndex((m) => m.role === "assistant");
  expect(h.input.messages.slice(assistantAt + 1, assistantAt + 3).every((m) => m.role === "toolResult")).toBe(true);
  // the repaired result is announced too (message_end is what records it in the session file)
  const ended = h.events.flatMap((e) => (e.type === "message_end" && e.message.role === "toolResult" ? [e.message.toolCallId] : []));
  expect(ended.sort()).toEqual(["c1", "c2"]);
  expect(h.events.find((e) => e.type === "message_end" && e.message.role === "toolResult" && e.message.toolCallId === "c1")).toMatchObject({
    message: { isError: true, content: [{ type: "text", text: "Tool execution failed due to an error: listener broke" }] },
  });
});

it("runAgentLoop: provider failures: a listener that keeps failing still leaves the repaired results in the context and says so", async () => {
  const { stream } = scriptedStream([{ steps: [{ toolCall: { id: "c1", name: "t" } }] }]);
  const h = harness({
    stream,
    onEvent: (e) => {
      if (e.type === "tool_execution_start" || (e.type === "message_end" && e.message.role === "toolResult")) throw new Error("listener broke");
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(added[0]).toMatchObject({ stopReason: "error", errorMessage: "listener broke; tool result listener failed: listener broke" });
  expect(h.input.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
});
