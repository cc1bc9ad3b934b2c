import { expect, it } from "vitest";
import type { AgentEvent, ToolResultMessage } from "../shared/types.js";
import { fakeTool, harness, scriptedStream, textOf, trace, user } from "../../test/support/agent.js";
import { runAgentLoop } from "./loop.js";

const SKIPPED = "Skipped due to queued user message.";

function firstTurnResults(events: AgentEvent[]): ToolResultMessage[] {
  const turnEnd = events.find((e) => e.type === "turn_end");
  if (turnEnd?.type !== "turn_end") throw new Error("no turn_end");
  return turnEnd.toolResults;
}

it("steering, wait mode: tools run to completion; steering is delivered after turn_end, before the next model call", async () => {
  const { stream, calls } = scriptedStream([
    { steps: [{ toolCall: { id: "A", name: "a" } }, { toolCall: { id: "B", name: "b" } }] },
    { steps: [{ text: "ack" }] },
  ]);
  const h = harness({
    stream,
    tools: [fakeTool("a", { ticks: 3 }), fakeTool("b", { ticks: 1 })],
    onEvent: (e, hh) => e.type === "tool_execution_start" && e.toolCallId === "A" && hh.steering.push(user("steer!")),
  });
  await runAgentLoop(h.input, h.config);
  expect(firstTurnResults(h.events).map((r) => [r.toolCallId, textOf(r)])).toEqual([
    ["B", "b ok"],
    ["A", "a ok"],
  ]);
  const t = trace(h.events);
  const turnEnd = t.indexOf("turn_end");
  expect(t.slice(turnEnd, turnEnd + 5)).toEqual([
    "turn_end",
    "turn_start",
    "message_start user",
    "message_end user",
    "message_start assistant",
  ]);
  expect(calls[1]?.context.messages.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual([
    "user",
    "assistant",
    "B",
    "A",
    "user",
  ]);
  expect(calls[1]?.context.messages.at(-1)).toEqual(user("steer!"));
  // no poll during the batch in wait mode: run start, after turn 1, after turn 2, then follow-ups
  expect(h.polls).toEqual(["steering", "steering", "steering", "followUp"]);
});

it("steering, immediate mode: interrupts the batch: the trigger keeps its result, running and unstarted calls are skipped", async () => {
  const fast = fakeTool("fast", { ticks: 1 });
  const slow = fakeTool("slow", { ticks: 1000 });
  const sturdy = fakeTool("sturdy", { ticks: 4, nonAbortable: true });
  const excl = fakeTool("excl", { concurrency: "exclusive" });
  const after = fakeTool("after");
  const ids = { F: "fast", S: "slow", N: "sturdy", X: "excl", Y: "after" };
  const steps = Object.entries(ids).map(([id, name]) => ({ toolCall: { id, name } }));
  const { stream, calls } = scriptedStream([{ steps }, { steps: [{ text: "ok" }] }]);
  const h = harness({
    stream,
    interruptMode: "immediate",
    tools: [fast, slow, sturdy, excl, after],
    onEvent: (e, hh) => e.type === "tool_execution_start" && e.toolCallId === "F" && hh.steering.push(user("stop that")),
  });
  await runAgentLoop(h.input, h.config);
  const t = trace(h.events);
  const tools = t.filter((x) => x.startsWith("tool_execution"));
  expect(tools).toEqual([
    "tool_execution_start F",
    "tool_execution_start S",
    "tool_execution_start N",
    "tool_execution_end F",
    "tool_execution_end S",
    "tool_execution_end N",
    "tool_execution_start X",
    "tool_execution_end X",
    "tool_execution_start Y",
    "tool_execution_end Y",
  ]);
  const results = firstTurnResults(h.events);
  expect(results.map((r) => [r.toolCallId, r.isError, textOf(r)])).toEqual([
    ["F", false, "fast ok"],
    ["S", true, SKIPPED],
    ["N", true, SKIPPED],
    ["X", true, SKIPPED],
    ["Y", true, SKIPPED],
  ]);
  expect(slow.log).toEqual(["start S", "aborted S"]);
  expect(sturdy.log).toEqual(["start N", "end N"]);
  expect(excl.log).toEqual([]);
  expect(after.log).toEqual([]);
  const endX = h.events.find((e) => e.type === "tool_execution_end" && e.toolCallId === "X");
  expect(endX).toEqual({
    type: "tool_execution_end",
    toolCallId: "X",
    toolName: "excl",
    result: { content: [{ type: "text", text: SKIPPED }], details: {} },
    isError: true,
  });
  const turnEnd = t.indexOf("turn_end");
  expect(t.slice(turnEnd, turnEnd + 4)).toEqual(["turn_end", "turn_start", "message_start user", "message_end user"]);
  expect(calls[1]?.context.messages.at(-1)).toEqual(user("stop that"));
  // run start, after F (taken) — no poll after the skipped ones nor after turn_end — then turn 2
  expect(h.polls).toEqual(["steering", "steering", "steering", "followUp"]);
});

it("steering, immediate mode: polls after each completed call while nothing is queued", async () => {
  const { stream } = scriptedStream([
    { steps: [{ toolCall: { id: "A", name: "t" } }, { toolCall: { id: "B", name: "t" } }] },
    { steps: [{ text: "ok" }] },
  ]);
  const h = harness({ stream, interruptMode: "immediate", tools: [fakeTool("t", { ticks: 1 })] });
  await runAgentLoop(h.input, h.config);
  expect(h.polls).toEqual(["steering", "steering", "steering", "steering", "steering", "followUp"]);
  expect(firstTurnResults(h.events).every((r) => !r.isError)).toBe(true);
});

it("steering, immediate mode: steering taken during the batch and then an abort: the steering still enters the context", async () => {
  const { stream, calls } = scriptedStream([
    { steps: [{ toolCall: { id: "A", name: "fast" } }, { toolCall: { id: "B", name: "slow" } }] },
  ]);
  const h = harness({
    stream,
    interruptMode: "immediate",
    tools: [fakeTool("fast"), fakeTool("slow", { ticks: 5, nonAbortable: true })],
    onEvent: (e, hh) => {
      if (e.type === "tool_execution_start" && e.toolCallId === "A") hh.steering.push(user("queued"));
      if (e.type === "tool_execution_end" && e.toolCallId === "A") queueMicrotask(() => hh.controller.abort());
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(calls).toHaveLength(1);
  expect(trace(h.events).slice(-4)).toEqual(["turn_end", "message_start user", "message_end user", "agent_end"]);
  expect(added.at(-1)).toEqual(user("queued"));
});
