// The manager against a real MCP server over stdio (test/support/mcp/stdio-server.mjs).
import { getEventListeners } from "node:events";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG_1X1 } from "../../test/support/mcp/fixture-tools.mjs";
import { abortAfterStart, callTool, makeManager, plan, stdioFixture, until, type TestManager } from "../../test/support/mcp-fakes.js";

describe("an MCP server over stdio", () => {
  let t: TestManager;
  beforeAll(async () => {
    t = makeManager({ timeouts: { toolTimeoutMs: 1500, killGraceMs: 300 } });
    t.manager.setServers([plan("fx", stdioFixture("fx"))]);
    expect(t.manager.servers()).toEqual([{ name: "fx", source: "global", status: "connecting", tools: [] }]);
    await t.manager.waitForStartup();
  });
  afterAll(() => t.manager.shutdown());

  it("connects in the background and offers its tools as mcp__<server>__<tool>", () => {
    const [status] = t.manager.servers();
    expect(status).toMatchObject({ name: "fx", source: "global", status: "connected" });
    expect(status.error).toBeUndefined();
    expect(status.tools).toEqual(expect.arrayContaining(["mcp__fx__echo", "mcp__fx__image", "mcp__fx__fail", "mcp__fx__progress", "mcp__fx__hang", "mcp__fx__crash"]));
    const echo = t.manager.tools().find((x) => x.name === "mcp__fx__echo");
    expect(echo).toMatchObject({ label: "fx: echo", description: "Echoes text back", source: "mcp", concurrency: "shared" });
    expect(echo?.parameters).toMatchObject({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });
    expect(t.manager.tools()).toBe(t.manager.tools());
  });

  it("takes a tool's effect from its readOnlyHint: read-only only when the server says so", () => {
    const effect = (name: string) => t.manager.tools().find((x) => x.name === name)?.effect;
    expect(effect("mcp__fx__peek")).toBe("read-only");
    expect(effect("mcp__fx__touch")).toBe("unknown");
    expect(effect("mcp__fx__echo")).toBe("unknown");
  });

  it("sends the server's stderr to the log sink, never to stdout", () => {
    expect(t.logs).toContainEqual(expect.stringMatching(/^\[fx\] fixture fx ready pid=\d+$/));
    expect(t.logs).toContain("[fx] pith: connected, 17 tools");
  });

  it("maps text, image, embedded resources, resource links and structured content", async () => {
    expect(await callTool(t.manager, "mcp__fx__echo", { text: "hello" })).toMatchObject({ isError: false, text: "fx: hello" });
    const image = await callTool(t.manager, "mcp__fx__image", {});
    expect(image.result.content).toEqual([
      { type: "text", text: "a 1x1 png" },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
    ]);
    expect(image.result.details).toEqual({ server: "fx", tool: "image" });
    const res = await callTool(t.manager, "mcp__fx__resources", {});
    expect(res.result.content).toEqual([
      { type: "text", text: "[resource file:///notes.txt]\nthe notes" },
      { type: "text", text: "[resource file:///pixel.png]" },
      { type: "image", data: PNG_1X1, mimeType: "image/png" },
      { type: "text", text: "[resource file:///data.bin: application/octet-stream, 3 bytes; binary content is not shown to the model]" },
      { type: "text", text: "[resource link] big.log: file:///big.log (a large log)" },
    ]);
    const structured = await callTool(t.manager, "mcp__fx__structured", {});
    expect(structured.text).toBe('{\n  "answer": 42\n}');
  });

  it("turns isError into a tool error carrying the server's text", async () => {
    expect(await callTool(t.manager, "mcp__fx__fail", { message: "no such repository" })).toMatchObject({ isError: true, text: "no such repository" });
  });

  it("validates arguments against the server's schema before calling", async () => {
    const bad = await callTool(t.manager, "mcp__fx__echo", { txt: "x" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain('Validation failed for tool "mcp__fx__echo"');
    expect(bad.text).toContain("text: must have required property 'text'");
  });

  it("streams progress notifications as tool updates, then answers", async () => {
    const r = await callTool(t.manager, "mcp__fx__progress", { steps: 3 });
    expect(r).toMatchObject({ isError: false, text: "done after 3 steps" });
    expect(r.updates).toEqual([1, 2, 3].map((i) => ({ content: [{ type: "text", text: `step ${i} (${i}/3)` }], details: { server: "fx", tool: "progress", progress: i, total: 3 } })));
  });

  it("ends a hanging call at once on abort, sends MCP cancellation, and stays usable", async () => {
    const { outcome, abortMs } = await abortAfterStart(t.manager, "mcp__fx__hang");
    expect(abortMs).toBeLessThan(1000);
    expect(outcome).toMatchObject({ isError: true, text: 'MCP tool call aborted (cancellation sent to MCP server "fx")' });
    expect((await callTool(t.manager, "mcp__fx__cancellations", {})).text).toBe("1");
    expect(await callTool(t.manager, "mcp__fx__echo", { text: "still here" })).toMatchObject({ isError: false, text: "fx: still here" });
    expect(t.manager.servers()[0].status).toBe("connected");
  });

  it("bounds a call by toolTimeoutMs, cancelling it on the server", async () => {
    const r = await callTool(t.manager, "mcp__fx__hang", {});
    expect(r).toMatchObject({ isError: true, text: 'MCP tool "hang" on server "fx" did not answer within 1.5 s; the call was cancelled' });
    expect((await callTool(t.manager, "mcp__fx__cancellations", {})).text).toBe("2");
  });

  it("leaves no abort listener behind on the caller's signal (a batch shares one)", async () => {
    const shared = new AbortController().signal;
    for (let i = 0; i < 12; i++) await callTool(t.manager, "mcp__fx__echo", { text: String(i) }, shared);
    expect(getEventListeners(shared, "abort")).toEqual([]);
  });

  it("refreshes the tool list on notifications/tools/list_changed", async () => {
    const v0 = t.manager.version;
    expect(await callTool(t.manager, "mcp__fx__add_tool", { name: "late" })).toMatchObject({ text: "added late" });
    await until(() => t.manager.tools().some((x) => x.name === "mcp__fx__late"), 5000, "the new tool");
    expect(t.manager.version).toBeGreaterThan(v0);
    expect(t.manager.servers()[0].tools).toContain("mcp__fx__late");
    expect(await callTool(t.manager, "mcp__fx__late", {})).toMatchObject({ isError: false, text: "late is here" });
    await callTool(t.manager, "mcp__fx__remove_tool", { name: "late" });
    await until(() => !t.manager.tools().some((x) => x.name === "mcp__fx__late"), 5000, "the tool to go");
  });
});
