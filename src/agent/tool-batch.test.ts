import { expect, it } from "vitest";
import type { AgentEvent, ToolResultMessage } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import { fakeTool, harness, scriptedStream, textOf, trace } from "../../test/support/agent.js";
import type { Reply } from "../../test/support/agent.js";
import { runAgentLoop } from "./loop.js";

function callsReply(...calls: [id: string, name: string, args?: Record<string, unknown>][]): Reply {
  return { steps: calls.map(([id, name, args]) => ({ toolCall: { id, name, args } })) };
}

const toolTrace = (events: AgentEvent[]) => trace(events).filter((t) => t.startsWith("tool_execution"));

function results(events: AgentEvent[]): ToolResultMessage[] {
  const turnEnd = events.find((e) => e.type === "turn_end");
  if (turnEnd?.type !== "turn_end") throw new Error("no turn_end");
  return turnEnd.toolResults;
}

async function runWith(tools: Tool[], reply: Reply) {
  const { stream, calls } = scriptedStream([reply, { steps: [{ text: "done" }] }]);
  const h = harness({ stream, tools });
  const added = await runAgentLoop(h.input, h.config);
  return { h, calls, added };
}

it("tool batch: runs shared calls together and reports them in completion order (sequence b)", async () => {
  const slow = fakeTool("slow", { ticks: 6 });
  const fast = fakeTool("fast", { ticks: 1 });
  const { h, calls, added } = await runWith([slow, fast], callsReply(["A", "slow"], ["B", "fast"]));
  expect(trace(h.events).slice(11)).toEqual([
    "message_end assistant",
    "tool_execution_start A",
    "tool_execution_start B",
    "tool_execution_end B",
    "message_start toolResult B",
    "message_end toolResult B",
    "tool_execution_end A",
    "message_start toolResult A",
    "message_end toolResult A",
    "turn_end",
    "turn_start",
    "message_start assistant",
    "update text_start",
    "update text_delta",
    "update text_end",
    "message_end assistant",
    "turn_end",
    "agent_end",
  ]);
  expect(results(h.events).map((r) => r.toolCallId)).toEqual(["B", "A"]);
  expect(added.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual([
    "user",
    "assistant",
    "B",
    "A",
    "assistant",
  ]);
  expect(calls[1]?.context.messages.map((m) => (m.role === "toolResult" ? m.toolCallId : m.role))).toEqual([
    "user",
    "assistant",
    "B",
    "A",
  ]);
});

it("tool batch: builds the toolResult message and end event from the outcome", async () => {
  const { h } = await runWith([fakeTool("t")], callsReply(["c1", "t"]));
  const end = h.events.find((e) => e.type === "tool_execution_end");
  expect(end).toEqual({
    type: "tool_execution_end",
    toolCallId: "c1",
    toolName: "t",
    result: { content: [{ type: "text", text: "t ok" }], details: { id: "c1" } },
    isError: false,
    isWarning: false,
  });
  const message = results(h.events)[0];
  expect(message).toEqual({
    role: "toolResult",
    toolCallId: "c1",
    toolName: "t",
    content: [{ type: "text", text: "t ok" }],
    details: { id: "c1" },
    isError: false,
    isWarning: false,
    timestamp: message?.timestamp,
  });
  expect(typeof message?.timestamp).toBe("number");
});

it("tool batch: an exclusive call waits for earlier calls and blocks later ones", async () => {
  const s1 = fakeTool("s1", { ticks: 4 });
  const s2 = fakeTool("s2", { ticks: 1 });
  const x = fakeTool("x", { concurrency: "exclusive", ticks: 1 });
  const s3 = fakeTool("s3", { ticks: 0 });
  const s4 = fakeTool("s4", { ticks: 2 });
  const { h } = await runWith([s1, s2, x, s3, s4], callsReply(["1", "s1"], ["2", "s2"], ["X", "x"], ["3", "s3"], ["4", "s4"]));
  expect(toolTrace(h.events)).toEqual([
    "tool_execution_start 1",
    "tool_execution_start 2",
    "tool_execution_end 2",
    "tool_execution_end 1",
    "tool_execution_start X",
    "tool_execution_end X",
    "tool_execution_start 3",
    "tool_execution_start 4",
    "tool_execution_end 3",
    "tool_execution_end 4",
  ]);
});

it("tool batch: a tool that is not active gets `Tool <name> not found`", async () => {
  const { h } = await runWith([fakeTool("t")], callsReply(["c1", "missing"]));
  const r = results(h.events)[0];
  expect(r?.isError).toBe(true);
  expect(textOf(r!)).toBe("Tool missing not found");
  expect(toolTrace(h.events)).toEqual(["tool_execution_start c1", "tool_execution_end c1"]);
});

it("tool batch: a throwing tool becomes an isError result with its message", async () => {
  const { h, calls } = await runWith([fakeTool("t", { throws: "disk on fire" })], callsReply(["c1", "t"]));
  const r = results(h.events)[0];
  expect(r).toMatchObject({ isError: true, content: [{ type: "text", text: "disk on fire" }], details: {} });
  expect(calls).toHaveLength(2);
});

it("tool batch: invalid arguments never reach the tool (runTool validation)", async () => {
  const t = fakeTool("t");
  t.parameters = { type: "object", properties: { n: { type: "number" } }, required: ["n"] };
  const { h } = await runWith([t], callsReply(["c1", "t", {}]));
  expect(textOf(results(h.events)[0]!)).toMatch(/^Validation failed for tool "t":/);
  expect(t.log).toEqual([]);
});

it("tool batch: streams tool_execution_update with the call's args between start and end", async () => {
  const { h } = await runWith([fakeTool("t", { updates: 2, ticks: 1 })], callsReply(["c1", "t", { q: 1 }]));
  expect(toolTrace(h.events)).toEqual([
    "tool_execution_start c1",
    "tool_execution_update c1",
    "tool_execution_update c1",
    "tool_execution_end c1",
  ]);
  expect(h.events.find((e) => e.type === "tool_execution_update")).toEqual({
    type: "tool_execution_update",
    toolCallId: "c1",
    toolName: "t",
    args: { q: 1 },
    partialResult: { content: [{ type: "text", text: "t 0" }] },
  });
});

it("tool batch: strips the intent-tracing `_i` key from the args and reports it as intent", async () => {
  let received: unknown;
  const t = fakeTool("t");
  const execute = t.execute.bind(t);
  t.execute = async (args, ctx) => {
    received = args;
    return execute(args, ctx);
  };
  const { h, added } = await runWith([t], callsReply(["c1", "t", { _i: " reading a file ", path: "a" }]));
  expect(h.events.find((e) => e.type === "tool_execution_start")).toEqual({
    type: "tool_execution_start",
    toolCallId: "c1",
    toolName: "t",
    args: { path: "a" },
    intent: "reading a file",
  });
  expect(received).toEqual({ path: "a" });
  const assistant = added[1];
  expect(assistant?.role === "assistant" && assistant.content[0]).toMatchObject({ arguments: { _i: " reading a file " } });
});

it("tool batch: wrapToolExecution wraps each call; a rejecting wrapper becomes an error result", async () => {
  const seen: string[] = [];
  const { stream } = scriptedStream([callsReply(["c1", "t"], ["c2", "t"]), { steps: [{ text: "done" }] }]);
  const h = harness({
    stream,
    tools: [fakeTool("t")],
    config: {
      wrapToolExecution: async (call, tool, run) => {
        seen.push(`${call.id}:${tool.name}`);
        if (call.id === "c2") throw new Error("blocked by extension");
        const outcome = await run();
        return { ...outcome, result: { ...outcome.result, content: [{ type: "text", text: "wrapped" }] } };
      },
    },
  });
  await runAgentLoop(h.input, h.config);
  expect(seen).toEqual(["c1:t", "c2:t"]);
  const byId = Object.fromEntries(results(h.events).map((r) => [r.toolCallId, r]));
  expect(byId.c1).toMatchObject({ isError: false, content: [{ type: "text", text: "wrapped" }] });
  expect(byId.c2).toMatchObject({ isError: true, content: [{ type: "text", text: "blocked by extension" }] });
});

it("tool batch: passes cwd from getCwd and a per-call signal to the tool", async () => {
  let ctxSeen: { cwd: string; toolCallId: string; aborted: boolean } | undefined;
  const t = fakeTool("t");
  t.execute = async (_args, ctx) => {
    ctxSeen = { cwd: ctx.cwd, toolCallId: ctx.toolCallId, aborted: ctx.signal.aborted };
    return { content: [] };
  };
  const { stream } = scriptedStream([callsReply(["c9", "t"]), { steps: [{ text: "done" }] }]);
  const h = harness({ stream, tools: [t], config: { getCwd: () => "/proj" } as never });
  await runAgentLoop(h.input, h.config);
  expect(ctxSeen).toEqual({ cwd: "/proj", toolCallId: "c9", aborted: false });
});

it("tool batch: a wrapper that hands over after the abort (a dialog, a checkpoint) never starts the tool; the call says it was aborted", async () => {
  const t = fakeTool("t");
  const { stream } = scriptedStream([callsReply(["c1", "t"], ["c2", "t"]), { steps: [{ text: "never" }] }]);
  const h: ReturnType<typeof harness> = harness({
    stream,
    tools: [t],
    config: {
      // c1: the wrapper waits (an approval dialog), the run is aborted meanwhile, then it allows;
      // c2: the wrapper denies because its dialog was cancelled by that abort
      wrapToolExecution: async (call, _tool, run) => {
        if (call.id === "c1") {
          h.controller.abort();
          return run();
        }
        return { isError: true, result: { content: [{ type: "text", text: "denied: the dialog was cancelled" }], details: {} } };
      },
    },
  });
  const added = await runAgentLoop(h.input, h.config);
  expect(t.log).toEqual([]);
  const byId = Object.fromEntries(results(h.events).map((r) => [r.toolCallId, r]));
  for (const id of ["c1", "c2"]) {
    expect(byId[id]).toMatchObject({ isError: true, content: [{ type: "text", text: "Tool execution was aborted: Request was aborted" }] });
  }
  // one result per call in the context, and no model call after the abort
  expect(added.flatMap((m) => (m.role === "toolResult" ? [m.toolCallId] : [])).sort()).toEqual(["c1", "c2"]);
  expect(added.at(-1)?.role).toBe("toolResult");
});

it("tool batch: a tool that ran keeps its own result when the run is aborted afterwards", async () => {
  const t = fakeTool("t");
  const { stream } = scriptedStream([callsReply(["c1", "t"]), { steps: [{ text: "never" }] }]);
  const h: ReturnType<typeof harness> = harness({
    stream,
    tools: [t],
    config: {
      wrapToolExecution: async (_call, _tool, run) => {
        const outcome = await run();
        h.controller.abort();
        return outcome;
      },
    },
  });
  await runAgentLoop(h.input, h.config);
  expect(t.log).toEqual(["start c1", "end c1"]);
  expect(results(h.events)[0]).toMatchObject({ toolCallId: "c1", isError: false, content: [{ type: "text", text: "t ok" }] });
});
