import { describe, expect, it } from "vitest";
import type { AgentEvent, ToolResultMessage } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import { runAgentLoop } from "./loop.js";
import { fakeTool, harness, scriptedStream } from "../../test/support/agent.js";
import { advertisedTools, resolveShelfCall, SHELF_TOOL } from "./tool-shelf.js";

function deferred(name: string, parameters: Record<string, unknown> = { type: "object", properties: {} }): Tool & { log: string[] } {
  const t = fakeTool(name);
  return Object.assign(t, { deferred: true, parameters, description: `Does ${name} things. More detail here.` });
}

const calcSchema = { type: "object", required: ["expr"], properties: { expr: { type: "string" }, precision: { type: "integer" } } };

describe("advertisedTools", () => {
  it("sends deferred tools as one call_tool definition listing them, after the others", () => {
    const defs = advertisedTools([fakeTool("read"), deferred("calc", calcSchema), fakeTool("bash"), deferred("ls")]);
    expect(defs.map((d) => d.name)).toEqual(["read", "bash", SHELF_TOOL]);
    const shelf = defs[2]!;
    expect(shelf.description).toContain("- calc(expr, …) Does calc things");
    expect(shelf.description).toContain("- ls() Does ls things");
    expect(shelf.description).not.toContain("More detail");
    expect(shelf.parameters).toMatchObject({ required: ["name"] });
  });
  it("sends no call_tool when nothing is deferred, and keeps a forced tool's own definition", () => {
    expect(advertisedTools([fakeTool("read")]).map((d) => d.name)).toEqual(["read"]);
    expect(advertisedTools([fakeTool("read"), deferred("calc")], "calc").map((d) => d.name)).toEqual(["read", "calc"]);
  });
  it("defers nothing when a tool of its own is named call_tool (a host's)", () => {
    const defs = advertisedTools([fakeTool(SHELF_TOOL), deferred("calc")]);
    expect(defs.map((d) => d.name)).toEqual([SHELF_TOOL, "calc"]);
    expect(defs[0]!.description).toBe(`fake ${SHELF_TOOL}`);
  });
  it("uses a tool's summary when it has one", () => {
    const t = Object.assign(deferred("task"), { summary: "Subagents (task, explore)" });
    expect(advertisedTools([t])[0]!.description).toContain("- task() Subagents (task, explore)");
  });
});

describe("resolveShelfCall", () => {
  const tools = new Map<string, Tool>([["read", fakeTool("read")], ["calc", deferred("calc", calcSchema)]]);
  const call = (args: Record<string, unknown>) => ({ type: "toolCall" as const, id: "c1", name: SHELF_TOOL, arguments: args });

  it("leaves other calls alone", () => {
    expect(resolveShelfCall({ type: "toolCall", id: "c", name: "read", arguments: {} }, tools)).toBeUndefined();
  });
  it("unwraps a call of a deferred tool, keeping the id and the intent", () => {
    const r = resolveShelfCall(call({ name: "calc", arguments: { expr: "1+1" }, _i: "adding" }), tools);
    expect(r).toMatchObject({ kind: "run", call: { id: "c1", name: "calc", arguments: { expr: "1+1", _i: "adding" } } });
  });
  it("answers a name alone with the full description and schema", () => {
    const r = resolveShelfCall(call({ name: "calc" }), tools);
    expect(r).toMatchObject({ kind: "answer", isError: false });
    expect(r?.kind === "answer" && r.text).toContain("More detail here.");
    expect(r?.kind === "answer" && r.text).toContain(JSON.stringify(calcSchema));
  });
  it("refuses unknown names, tools that are not deferred, and non-object arguments", () => {
    for (const args of [{ name: "nope" }, { name: "read", arguments: {} }, {}]) {
      const r = resolveShelfCall(call(args), tools);
      expect(r).toMatchObject({ kind: "answer", isError: true });
      expect(r?.kind === "answer" && r.text).toContain("Available: calc.");
    }
    expect(resolveShelfCall(call({ name: "calc", arguments: [1] }), tools)).toMatchObject({ kind: "answer", isError: true });
  });
});

describe("a run with deferred tools", () => {
  it("runs the tool behind call_tool as itself: events, the permission wrap and the stored result name it", async () => {
    const calc = deferred("calc", calcSchema);
    const wrapped: string[] = [];
    const { stream, calls } = scriptedStream([
      { steps: [{ toolCall: { id: "A", name: SHELF_TOOL, args: { name: "calc", arguments: { expr: "6*7" } } } }] },
      { steps: [{ toolCall: { id: "B", name: SHELF_TOOL, args: { name: "calc" } } }] },
      { steps: [{ text: "done" }] },
    ]);
    const h = harness({ stream, tools: [fakeTool("read"), calc] });
    h.config.wrapToolExecution = (c, tool, run) => {
      wrapped.push(`${c.name}:${tool.name}:${JSON.stringify(c.arguments)}`);
      return run();
    };
    await runAgentLoop(h.input, h.config);
    expect(calc.log).toEqual(["start A", "end A"]);
    expect(wrapped).toEqual(['calc:calc:{"expr":"6*7"}']);
    const starts = h.events.filter((e): e is Extract<AgentEvent, { type: "tool_execution_start" }> => e.type === "tool_execution_start");
    expect(starts.map((e) => [e.toolCallId, e.toolName, e.args])).toEqual([
      ["A", "calc", { expr: "6*7" }],
      ["B", SHELF_TOOL, { name: "calc" }],
    ]);
    const results = h.events.flatMap((e) => (e.type === "message_end" && e.message.role === "toolResult" ? [e.message as ToolResultMessage] : []));
    expect(results.map((r) => [r.toolCallId, r.toolName, r.isError])).toEqual([
      ["A", "calc", false],
      ["B", SHELF_TOOL, false],
    ]);
    // the provider saw call_tool, never calc's own definition, on every request
    for (const c of calls) expect(c.context.tools.map((t) => t.name)).toEqual(["read", SHELF_TOOL]);
  });
});
