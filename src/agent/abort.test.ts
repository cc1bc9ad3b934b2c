import { expect, it } from "vitest";
import type { AgentEvent, AssistantMessage } from "../shared/types.js";
import { fakeTool, harness, scriptedStream, textOf, trace, user } from "../../test/support/agent.js";
import { runAgentLoop } from "./loop.js";

const isFirstDelta = (e: AgentEvent) => e.type === "message_update" && e.assistantMessageEvent.type === "text_delta";

it("abort: mid-stream: sequence (c), the aborted message keeps the streamed text", async () => {
  const { stream } = scriptedStream([{ steps: [{ text: "Hel" }, { hang: true }] }]);
  const h = harness({ stream, onEvent: (e, hh) => isFirstDelta(e) && hh.controller.abort() });
  h.steering.push(user("taken at run start"));
  h.followUps.push(user("stays queued"));
  const added = await runAgentLoop(h.input, h.config);
  expect(trace(h.events).slice(4)).toEqual([
    "message_start user",
    "message_end user",
    "message_start assistant",
    "update text_start",
    "update text_delta",
    "message_end assistant",
    "turn_end",
    "agent_end",
  ]);
  expect(added[2]).toMatchObject({
    role: "assistant",
    stopReason: "aborted",
    errorMessage: "Request was aborted",
    content: [{ type: "text", text: "Hel" }],
  });
  expect(added.map((m) => m.role)).toEqual(["user", "user", "assistant"]);
  expect(h.polls).toEqual(["steering"]);
  expect(h.followUps).toHaveLength(1);
});

it("abort: mid-stream with a provider that ignores its signal: the run still ends", async () => {
  const { stream } = scriptedStream([{ deaf: true, steps: [{ text: "x" }, { hang: true }] }]);
  const h = harness({ stream, onEvent: (e, hh) => isFirstDelta(e) && hh.controller.abort() });
  const added = await runAgentLoop(h.input, h.config);
  expect(added.at(-1)).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "x" }] });
  expect(h.events.at(-1)?.type).toBe("agent_end");
});

it("abort: while tool calls stream: synthetic aborted results for every call in the partial", async () => {
  const { stream } = scriptedStream([
    { steps: [{ toolCall: { id: "c1", name: "t" } }, { toolCall: { id: "c2", name: "t" } }, { hang: true }] },
  ]);
  const h = harness({
    stream,
    tools: [fakeTool("t")],
    onEvent: (e, hh) =>
      e.type === "message_update" && e.assistantMessageEvent.type === "toolcall_end" && e.assistantMessageEvent.toolCall.id === "c2" && hh.controller.abort(),
  });
  await runAgentLoop(h.input, h.config);
  expect(trace(h.events).slice(-11)).toEqual([
    "message_end assistant",
    "tool_execution_start c1",
    "tool_execution_end c1",
    "message_start toolResult c1",
    "message_end toolResult c1",
    "tool_execution_start c2",
    "tool_execution_end c2",
    "message_start toolResult c2",
    "message_end toolResult c2",
    "turn_end",
    "agent_end",
  ]);
  const ends = h.events.filter((e) => e.type === "tool_execution_end");
  expect(ends).toEqual(
    ["c1", "c2"].map((id) => ({
      type: "tool_execution_end",
      toolCallId: id,
      toolName: "t",
      result: { content: [{ type: "text", text: "Tool execution was aborted: Request was aborted" }], details: {} },
      isError: true,
    })),
  );
  const turnEnd = h.events.at(-2);
  expect(turnEnd?.type === "turn_end" && turnEnd.toolResults.map((r) => r.toolCallId)).toEqual(["c1", "c2"]);
  expect(h.events.at(-1)?.type).toBe("agent_end");
});

it("abort: before the run: no model call, an empty aborted assistant, queues untouched", async () => {
  const { stream, calls } = scriptedStream([{ steps: [{ text: "x" }] }]);
  const h = harness({ stream });
  h.steering.push(user("later"));
  h.controller.abort();
  const added = await runAgentLoop(h.input, h.config);
  expect(calls).toHaveLength(0);
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
  expect(added[1]).toMatchObject({ content: [], stopReason: "aborted", errorMessage: "Request was aborted" });
  expect(h.polls).toEqual([]);
});

it("abort: mid-tool: running tools get the signal, non-abortable ones finish, unstarted ones are aborted; no extra model call", async () => {
  const slow = fakeTool("slow", { ticks: 1000 });
  const sturdy = fakeTool("sturdy", { ticks: 5, nonAbortable: true });
  const later = fakeTool("later", { concurrency: "exclusive" });
  const { stream, calls } = scriptedStream([
    { steps: [{ toolCall: { id: "A", name: "slow" } }, { toolCall: { id: "B", name: "sturdy" } }, { toolCall: { id: "C", name: "later" } }] },
    { steps: [{ text: "never" }] },
  ]);
  const h = harness({
    stream,
    tools: [slow, sturdy, later],
    onEvent: (e, hh) => {
      if (e.type === "tool_execution_start" && e.toolCallId === "A") hh.steering.push(user("stays queued"));
      if (e.type === "tool_execution_start" && e.toolCallId === "B") hh.controller.abort();
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(calls).toHaveLength(1);
  expect(trace(h.events).slice(-15)).toEqual([
    "message_end assistant",
    "tool_execution_start A",
    "tool_execution_start B",
    "tool_execution_end A",
    "message_start toolResult A",
    "message_end toolResult A",
    "tool_execution_end B",
    "message_start toolResult B",
    "message_end toolResult B",
    "tool_execution_start C",
    "tool_execution_end C",
    "message_start toolResult C",
    "message_end toolResult C",
    "turn_end",
    "agent_end",
  ]);
  const byId = Object.fromEntries(added.flatMap((m) => (m.role === "toolResult" ? [[m.toolCallId, m]] : [])));
  expect(byId.A).toMatchObject({ isError: true, content: [{ type: "text", text: "slow aborted" }] });
  expect(byId.B).toMatchObject({ isError: false, content: [{ type: "text", text: "sturdy ok" }] });
  expect(byId.C).toMatchObject({ isError: true, content: [{ type: "text", text: "Tool execution was aborted: Request was aborted" }] });
  expect(later.log).toEqual([]);
  expect(sturdy.log).toEqual(["start B", "end B"]);
  // pith: no steering poll and no follow-up poll after an abort
  expect(h.polls).toEqual(["steering"]);
  expect(h.steering).toHaveLength(1);
  expect(added.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "toolResult"]);
});

it("onAssistantUpdate hook (TTSR): returning true aborts only this stream; the triggering update is not emitted", async () => {
  const { stream, calls } = scriptedStream([{ steps: [{ text: "ok ", chunks: ["ok ", "bad"] }, { hang: true }] }]);
  const seen: string[] = [];
  const h = harness({
    stream,
    config: {
      onAssistantUpdate: (update) => {
        seen.push(update.assistantMessageEvent.type);
        return update.assistantMessageEvent.type === "text_delta" && update.assistantMessageEvent.delta === "bad";
      },
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(seen).toEqual(["text_start", "text_delta", "text_delta"]);
  expect(trace(h.events).filter((t) => t.startsWith("update"))).toEqual(["update text_start", "update text_delta"]);
  const final = added.at(-1) as AssistantMessage;
  expect(final.stopReason).toBe("aborted");
  expect(final.errorMessage).toBe("Request was aborted");
  expect(h.controller.signal.aborted).toBe(false);
  expect(calls[0]?.options.signal?.aborted).toBe(true);
  expect(h.events.at(-1)?.type).toBe("agent_end");
  expect(textOf(final as never)).toBe("ok bad");
});
