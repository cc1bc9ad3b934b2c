// Crashes, servers that cannot start or stall, startup waiting, and the no-orphan guarantee,
// against real stdio fixture servers.
import { afterEach, describe, expect, it } from "vitest";
import { killAllProcessGroups } from "../tools/ops/process-groups.js";
import type { McpManager } from "./manager.js";
import { alive, callTool, makeManager, plan, stdioFixture, until } from "../../test/support/mcp-fakes.js";

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.shutdown()));
});

function track<T extends { manager: McpManager }>(t: T): T {
  managers.push(t.manager);
  return t;
}

describe("a crashing MCP server", () => {
  it("gives a tool error that says so, is restarted on the next call, at most once per restart interval", async () => {
    let clock = 1_000_000;
    const { manager, logs } = track(makeManager({ now: () => clock }));
    manager.setServers([plan("crashy", stdioFixture("crashy"))]);
    await manager.waitForStartup();
    const firstPid = manager.pids().crashy;

    const crash = await callTool(manager, "mcp__crashy__crash", {});
    expect(crash.isError).toBe(true);
    expect(crash.text).toBe(
      'MCP server "crashy" failed during the call to "crash": exited with code 3 (stderr: crashy: crashing on purpose). It will be restarted on the next call.',
    );
    expect(manager.servers()[0]).toMatchObject({ status: "failed", error: "exited with code 3 (stderr: crashy: crashing on purpose)" });
    expect(manager.tools().map((t) => t.name)).toContain("mcp__crashy__echo"); // still offered: a call restarts it
    expect(alive(firstPid)).toBe(false);

    expect(await callTool(manager, "mcp__crashy__echo", { text: "back" })).toMatchObject({ isError: false, text: "crashy: back" });
    expect(manager.pids().crashy).not.toBe(firstPid);
    expect(manager.servers()[0].status).toBe("connected");
    expect(logs).toContain("[crashy] pith: restarting the server for a tool call");

    await callTool(manager, "mcp__crashy__crash", {});
    clock += 30_000;
    const refused = await callTool(manager, "mcp__crashy__echo", { text: "too soon" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toBe(
      'MCP server "crashy" is unavailable: exited with code 3 (stderr: crashy: crashing on purpose). pith restarts a server at most once every 60 s; the next attempt is possible in 30 s.',
    );
    clock += 30_000;
    expect(await callTool(manager, "mcp__crashy__echo", { text: "again" })).toMatchObject({ isError: false, text: "crashy: again" });
  });
});

describe("servers that cannot start", () => {
  it("reports a server that exits at start (with its stderr), a missing command and a missing working directory", async () => {
    const { manager } = track(makeManager());
    manager.setServers([
      plan("dies", stdioFixture("dies", "--exit-at-start", "2")),
      plan("missing", { type: "stdio", command: "pith-no-such-mcp-server", args: [], env: {} }),
      plan("nowhere", { ...stdioFixture("nowhere"), cwd: "/pith/no/such/dir" }),
    ]);
    await manager.waitForStartup();
    expect(manager.servers()).toEqual([
      { name: "dies", source: "global", status: "failed", error: "the server exited with code 2 (stderr: fixture dies: cannot start)", tools: [] },
      { name: "missing", source: "global", status: "failed", error: 'cannot start "pith-no-such-mcp-server": spawn pith-no-such-mcp-server ENOENT', tools: [] },
      { name: "nowhere", source: "global", status: "failed", error: `cannot start "${process.execPath}": the working directory /pith/no/such/dir does not exist`, tools: [] },
    ]);
    expect(manager.tools()).toEqual([]);
  });

  it("gives up on a server that never answers initialize after startupTimeoutMs, and kills it", async () => {
    const { manager, logs } = track(makeManager({ timeouts: { startupTimeoutMs: 1500, killGraceMs: 200 } }));
    manager.setServers([plan("stalled", stdioFixture("stalled", "--never-initialize"))]);
    const started = Date.now();
    await manager.waitForStartup();
    expect(Date.now() - started).toBeLessThan(4000);
    expect(manager.servers()[0]).toMatchObject({ status: "failed", error: "did not start within 1.5 s" });
    const pid = Number(/\[stalled\] pith: started process (\d+)/.exec(logs.join("\n"))?.[1]);
    expect(pid).toBeGreaterThan(0);
    await until(() => !alive(pid), 3000, "the stalled server to be killed");
  });
});

describe("startup waiting", () => {
  it("waits only for the servers still starting, and stops waiting on abort", async () => {
    const { manager } = track(makeManager());
    manager.setServers([plan("fast", stdioFixture("fast"))]);
    await manager.waitForStartup();
    manager.setServers([plan("fast", stdioFixture("fast")), plan("slow", stdioFixture("slow", "--start-delay-ms", "1500"))]);
    expect(manager.servers().map((s) => s.status)).toEqual(["connected", "connecting"]);

    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const started = Date.now();
    await manager.waitForStartup(ac.signal);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(manager.servers()[1].status).toBe("connecting");

    await manager.waitForStartup();
    expect(manager.servers().map((s) => s.status)).toEqual(["connected", "connected"]);
  });

  it("two calls to a crashed server share one restart", async () => {
    const { manager } = track(makeManager());
    manager.setServers([plan("s", stdioFixture("s"))]);
    await manager.waitForStartup();
    await callTool(manager, "mcp__s__crash", {});
    // The first call restarts the server; the second finds it starting and waits for that start.
    const [a, b] = await Promise.all([callTool(manager, "mcp__s__echo", { text: "a" }), callTool(manager, "mcp__s__echo", { text: "b" })]);
    expect([a.text, b.text]).toEqual(["s: a", "s: b"]);
  });
});

describe("no orphaned processes", () => {
  it("shutdown ends each stdio server and everything it started", async () => {
    const { manager } = track(makeManager());
    manager.setServers([plan("a", stdioFixture("a")), plan("b", stdioFixture("b"))]);
    await manager.waitForStartup();
    const pids = Object.values(manager.pids());
    const grandchild = Number((await callTool(manager, "mcp__a__spawn_child", {})).text);
    expect([...pids, grandchild].every(alive)).toBe(true);
    await manager.shutdown();
    // The leader is gone when shutdown resolves; the grandchild was SIGKILLed and only waits to be reaped by init.
    expect(pids.filter(alive)).toEqual([]);
    await until(() => !alive(grandchild), 1000, "the grandchild to die");
    expect(manager.servers()).toEqual([]);
    manager.setServers([plan("late", stdioFixture("late"))]);
    expect(manager.servers()).toEqual([]);
  });

  it("killAllProcessGroups (pith's exit path) reaches the servers' process groups", async () => {
    const { manager } = track(makeManager());
    manager.setServers([plan("k", stdioFixture("k"))]);
    await manager.waitForStartup();
    const pid = manager.pids().k;
    const grandchild = Number((await callTool(manager, "mcp__k__spawn_child", {})).text);
    killAllProcessGroups();
    await until(() => !alive(pid) && !alive(grandchild), 3000, "the group to die");
    await until(() => manager.servers()[0].status === "failed", 3000, "the loss to be seen");
  });

  it("a server that writes junk on stdout is logged and keeps working", async () => {
    const { manager, logs } = track(makeManager());
    manager.setServers([plan("junk", stdioFixture("junk", "--junk-stdout"))]);
    await manager.waitForStartup();
    expect(await callTool(manager, "mcp__junk__echo", { text: "ok" })).toMatchObject({ isError: false, text: "junk: ok" });
    expect(logs.some((l) => l.startsWith("[junk] error: server wrote a line that is not a JSON-RPC message"))).toBe(true);
  });
});
