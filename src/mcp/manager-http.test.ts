// The manager against real MCP servers over streamable HTTP and HTTP+SSE on 127.0.0.1
// (test/support/mcp/http-server.mjs).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PNG_1X1 } from "../../test/support/mcp/fixture-tools.mjs";
import { resolveServers } from "./resolve-servers.js";
import { abortAfterStart, callTool, freePort, makeManager, plan, startHttpFixture, until, type HttpFixture, type TestManager } from "../../test/support/mcp-fakes.js";

describe("MCP servers over HTTP", () => {
  let http: HttpFixture;
  let t: TestManager;
  beforeAll(async () => {
    http = await startHttpFixture("--name", "web");
    t = makeManager();
    t.manager.setServers([
      plan("web", { type: "http", url: http.url("/mcp"), headers: {} }, "host"),
      plan("legacy", { type: "sse", url: http.url("/sse"), headers: {} }, "project"),
    ]);
    await t.manager.waitForStartup();
  });
  afterAll(async () => {
    await t.manager.shutdown();
    await http.stop();
  });

  it("connect over streamable HTTP and SSE", () => {
    expect(t.manager.servers().map((s) => [s.name, s.source, s.status, s.tools.includes(`mcp__${s.name}__echo`)])).toEqual([
      ["web", "host", "connected", true],
      ["legacy", "project", "connected", true],
    ]);
  });

  it("call tools, map images and stream progress over both transports", async () => {
    for (const server of ["web", "legacy"]) {
      expect(await callTool(t.manager, `mcp__${server}__echo`, { text: "hi" })).toMatchObject({ isError: false, text: "web: hi" });
      expect((await callTool(t.manager, `mcp__${server}__image`, {})).result.content[1]).toEqual({ type: "image", data: PNG_1X1, mimeType: "image/png" });
      const p = await callTool(t.manager, `mcp__${server}__progress`, { steps: 2 });
      expect(p.text).toBe("done after 2 steps");
      expect(p.updates.map((u) => (u.content[0] as { text: string }).text)).toEqual(["step 1 (1/2)", "step 2 (2/2)"]);
      expect(await callTool(t.manager, `mcp__${server}__fail`, { message: "nope" })).toMatchObject({ isError: true, text: "nope" });
    }
  });

  it("abort a hanging call at once over streamable HTTP, and the server stays usable", async () => {
    const { outcome, abortMs } = await abortAfterStart(t.manager, "mcp__web__hang");
    expect(outcome).toMatchObject({ isError: true, text: 'MCP tool call aborted (cancellation sent to MCP server "web")' });
    expect(abortMs).toBeLessThan(1000);
    expect(await callTool(t.manager, "mcp__web__echo", { text: "after" })).toMatchObject({ isError: false, text: "web: after" });
    expect((await callTool(t.manager, "mcp__web__cancellations", {})).text).toBe("1");
  });

  it("refresh the tool list on list_changed over streamable HTTP", async () => {
    await callTool(t.manager, "mcp__web__add_tool", { name: "remote_late" });
    await until(() => t.manager.tools().some((x) => x.name === "mcp__web__remote_late"), 5000, "the new tool");
    expect(await callTool(t.manager, "mcp__web__remote_late", {})).toMatchObject({ text: "remote_late is here" });
  });
});

describe("remote MCP servers that fail", () => {
  it("send the configured headers, with ${VAR} expanded", async () => {
    const http = await startHttpFixture("--require-header", "authorization=Bearer t0k");
    const t = makeManager();
    try {
      const { plans } = resolveServers({
        global: {
          good: { type: "http", url: http.url("/mcp"), headers: { Authorization: "Bearer ${TOKEN}" } },
          bad: { type: "http", url: http.url("/mcp"), headers: { Authorization: "Bearer s3cret-but-not-it" } },
        },
        env: { TOKEN: "t0k" },
      });
      t.manager.setServers(plans);
      await t.manager.waitForStartup();
      const [good, bad] = t.manager.servers();
      expect(good.status).toBe("connected");
      expect(bad.status).toBe("failed");
      expect(bad.error).toBe("HTTP 401: Streamable HTTP error: Error POSTing to endpoint: missing or wrong header");
      expect(bad.error).not.toContain("s3cret");
    } finally {
      await t.manager.shutdown();
      await http.stop();
    }
  });

  it("report an unreachable server, and a server that dies mid-call, then retry on the next call", async () => {
    const http = await startHttpFixture();
    let clock = 0;
    const t = makeManager({ now: () => clock });
    try {
      const nobody = `http://127.0.0.1:${await freePort()}/mcp`;
      t.manager.setServers([plan("gone", { type: "http", url: nobody, headers: {} }), plan("dies", { type: "http", url: http.url("/mcp"), headers: {} })]);
      await t.manager.waitForStartup();
      expect(t.manager.servers()[0]).toMatchObject({ status: "failed", error: expect.stringMatching(/ECONNREFUSED/) });

      const crash = await callTool(t.manager, "mcp__dies__crash", {});
      expect(crash.isError).toBe(true);
      expect(crash.text).toMatch(/^MCP server "dies" failed during the call to "crash": .+\. It will be restarted on the next call\.$/);
      expect(t.manager.servers()[1].status).toBe("failed");
      const retry = await callTool(t.manager, "mcp__dies__echo", { text: "x" });
      expect(retry.isError).toBe(true);
      expect(retry.text).toMatch(/^MCP server "dies" could not be restarted: .*ECONNREFUSED/);
      clock += 1000;
      expect((await callTool(t.manager, "mcp__dies__echo", { text: "x" })).text).toMatch(/is unavailable: .*next attempt is possible in 59 s/);
    } finally {
      await t.manager.shutdown();
      await http.stop();
    }
  });

  it("come back through retryFailed once their restart is due, not before", async () => {
    let clock = 0;
    const t = makeManager({ now: () => clock });
    const port = await freePort();
    let http: HttpFixture | undefined;
    try {
      t.manager.setServers([plan("later", { type: "http", url: `http://127.0.0.1:${port}/mcp`, headers: {} })]);
      await t.manager.waitForStartup();
      expect(t.manager.servers()[0].status).toBe("failed");
      http = await startHttpFixture("--port", String(port));
      t.manager.retryFailed(); // the first retry is due at once
      await t.manager.waitForStartup();
      expect(t.manager.servers()[0]).toMatchObject({ status: "connected", tools: expect.arrayContaining(["mcp__later__echo"]) });

      await callTool(t.manager, "mcp__later__crash", {});
      expect(t.manager.servers()[0].status).toBe("failed");
      http = await startHttpFixture("--port", String(port));
      clock += 59_000;
      t.manager.retryFailed();
      expect(t.manager.servers()[0].status).toBe("failed");
      clock += 1_000;
      t.manager.retryFailed();
      expect(t.manager.servers()[0].status).toBe("connecting");
      await t.manager.waitForStartup();
      expect(t.manager.servers()[0].status).toBe("connected");
    } finally {
      await t.manager.shutdown();
      await http?.stop();
    }
  });
});
