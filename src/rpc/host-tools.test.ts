import { describe, expect, it } from "vitest";
import { PithError } from "../shared/errors.js";
import type { AgentToolResult } from "../shared/types.js";
import { createHostToolBridge, HOST_DISCONNECTED } from "./host-tools.js";

const schema = { type: "object", properties: { message: { type: "string" } } };

function setup() {
  const frames: Record<string, unknown>[] = [];
  let n = 0;
  const bridge = createHostToolBridge({ writeFrame: (f) => frames.push(f as Record<string, unknown>), newId: () => `h${++n}` });
  const { tools } = bridge.define([{ name: "echo_host", description: "Echo", parameters: schema }]);
  return { bridge, frames, tool: tools[0] };
}

function ctx(signal = new AbortController().signal, updates: AgentToolResult[] = []) {
  return { toolCallId: "toolu_1", signal, onUpdate: (p: AgentToolResult) => void updates.push(p) };
}

describe("define (set_host_tools)", () => {
  it("normalises names, labels and hidden, and reports names in order", () => {
    const { bridge } = setup();
    const { tools, names } = bridge.define([
      { name: " Upper_Case-1 ", label: "  ", description: " d ", parameters: {}, hidden: "yes" },
      { name: "b", label: " B ", description: "d", parameters: schema, hidden: true },
    ]);
    expect(names).toEqual(["Upper_Case-1", "b"]);
    expect(tools.map((t) => [t.name, t.label, t.description, t.hidden, t.source, t.concurrency])).toEqual([
      ["Upper_Case-1", "Upper_Case-1", "d", false, "host", "shared"],
      ["b", "B", "d", true, "host", "shared"],
    ]);
    expect(bridge.define([]).names).toEqual([]);
  });

  it("throws the definition check's PithError (messages: protocol/host-tool-definitions.test.ts)", () => {
    const { bridge } = setup();
    const dup = { name: "x", description: "d", parameters: {} };
    expect(() => bridge.define([dup, dup])).toThrow(PithError);
    expect(() => bridge.define([dup, dup])).toThrow("RPC host tool names must be unique");
  });
});

describe("host tool execution", () => {
  it("writes host_tool_call, forwards updates, resolves with the result exactly as sent", async () => {
    const { bridge, frames, tool } = setup();
    const updates: AgentToolResult[] = [];
    const p = tool.execute({ message: "hi", _i: "intent" }, ctx(undefined, updates));
    expect(frames).toEqual([{ type: "host_tool_call", id: "h1", toolCallId: "toolu_1", toolName: "echo_host", arguments: { message: "hi" } }]);
    expect(bridge.pendingCount).toBe(1);
    const partial = { content: [{ type: "text" as const, text: "working" }] };
    expect(bridge.handleUpdate({ id: "h1", partialResult: partial })).toBe(true);
    const result = { content: [{ type: "text" as const, text: "hi" }], details: { echoed: true }, isWarning: true };
    expect(bridge.handleResult({ id: "h1", result })).toBe(true);
    expect(await p).toBe(result);
    expect(updates).toEqual([partial]);
    expect(bridge.handleResult({ id: "h1", result })).toBe(false);
    expect(bridge.handleUpdate({ id: "h1", partialResult: partial })).toBe(false);
    expect(bridge.pendingCount).toBe(0);
  });

  it("isError: joined, trimmed text blocks become the error; empty text gets the default", async () => {
    const { bridge, tool } = setup();
    const a = tool.execute({}, ctx());
    const b = tool.execute({}, ctx());
    bridge.handleResult({
      id: "h1",
      isError: true,
      result: { content: [{ type: "text", text: " bad " }, { type: "image", data: "", mimeType: "image/png" }, { type: "text", text: "worse\n" }] },
    });
    bridge.handleResult({ id: "h2", isError: true, result: { content: [] } });
    await expect(a).rejects.toThrow(/^bad \nworse$/);
    await expect(b).rejects.toThrow("Host tool execution failed");
  });

  it("abort sends host_tool_cancel and rejects; a later result is ignored", async () => {
    const { bridge, frames, tool } = setup();
    const ac = new AbortController();
    const p = tool.execute({}, ctx(ac.signal));
    ac.abort();
    await expect(p).rejects.toThrow('Host tool "echo_host" was aborted');
    expect(frames[1]).toEqual({ type: "host_tool_cancel", id: "h2", targetId: "h1" });
    expect(bridge.handleResult({ id: "h1", result: { content: [] } })).toBe(false);
  });

  it("an already-aborted signal sends no frame at all", async () => {
    const { frames, tool } = setup();
    const ac = new AbortController();
    ac.abort();
    await expect(tool.execute({}, ctx(ac.signal))).rejects.toThrow('Host tool "echo_host" was aborted');
    expect(frames).toEqual([]);
  });

  it("keeps concurrent calls apart and rejectAll fails every pending one", async () => {
    const { bridge, tool } = setup();
    const a = tool.execute({}, ctx());
    const b = tool.execute({}, ctx());
    expect(bridge.pendingCount).toBe(2);
    bridge.handleResult({ id: "h2", result: { content: [{ type: "text", text: "b" }] } });
    await expect(b).resolves.toEqual({ content: [{ type: "text", text: "b" }] });
    bridge.rejectAll();
    await expect(a).rejects.toThrow(HOST_DISCONNECTED);
    expect(bridge.pendingCount).toBe(0);
  });

  it("after rejectAll (stdin EOF) a new call fails at once and sends no frame", async () => {
    const { bridge, frames, tool } = setup();
    bridge.rejectAll();
    await expect(tool.execute({}, ctx())).rejects.toThrow(HOST_DISCONNECTED);
    expect(frames).toEqual([]);
    expect(bridge.pendingCount).toBe(0);
  });

  it("a call from a replaced definition set still completes", async () => {
    const { bridge, tool } = setup();
    const p = tool.execute({}, ctx());
    bridge.define([]);
    bridge.handleResult({ id: "h1", result: { content: [] } });
    await expect(p).resolves.toEqual({ content: [] });
  });
});
