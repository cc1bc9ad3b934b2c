// How the manager follows its configuration: plans without a usable config, changes to the
// server set, the child's environment and cwd, name collisions, and image-less models.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { McpManager } from "./manager.js";
import type { OpenOptions } from "./open-client.js";
import { resolveServers } from "./resolve-servers.js";
import { alive, callTool, makeManager, plan, stdioFixture, until } from "../../test/support/mcp-fakes.js";

const managers: McpManager[] = [];
afterEach(async () => {
  await Promise.all(managers.splice(0).map((m) => m.shutdown()));
});

function managed(...args: Parameters<typeof makeManager>) {
  const t = makeManager(...args);
  managers.push(t.manager);
  return t;
}

describe("servers that are not started", () => {
  it("report disabled and invalid plans without ever opening a connection (so the SDK is never loaded)", async () => {
    const opened: OpenOptions[] = [];
    const { manager } = managed({ open: async (o) => (opened.push(o), Promise.reject(new Error("unexpected"))) });
    const { plans } = resolveServers({
      global: { off: { command: "x", disabled: true }, broken: { command: 42 } },
      mcpJson: { repo: { command: "./evil.sh" } },
      env: {},
    });
    manager.setServers(plans);
    await manager.waitForStartup();
    expect(manager.servers()).toEqual([
      { name: "off", source: "global", status: "disabled", error: "disabled in global settings", tools: [] },
      { name: "broken", source: "global", status: "failed", error: "global settings: mcpServers.broken.command: must be a non-empty string", tools: [] },
      { name: "repo", source: "mcp-json", status: "disabled", error: expect.stringContaining('add "repo" to mcp.projectServers'), tools: [] },
    ]);
    expect(manager.tools()).toEqual([]);
    manager.setServers([
      { name: "twice", source: "global", disabled: "first" },
      { name: "twice", source: "host", disabled: "second" },
    ]);
    expect(manager.servers()).toEqual([{ name: "twice", source: "host", status: "disabled", error: "second", tools: [] }]);
    expect(opened).toEqual([]);
  });
});

describe("setServers", () => {
  it("keeps unchanged servers running, restarts changed ones and stops removed ones", async () => {
    const { manager } = managed();
    manager.setServers([plan("keep", stdioFixture("keep")), plan("change", stdioFixture("change")), plan("drop", stdioFixture("drop"))]);
    await manager.waitForStartup();
    const before = manager.pids();
    const v = manager.version;
    manager.setServers([plan("new", stdioFixture("new")), plan("change", stdioFixture("change", "--start-delay-ms", "1")), plan("keep", stdioFixture("keep"))]);
    expect(manager.version).toBeGreaterThan(v);
    expect(manager.servers().map((s) => [s.name, s.status])).toEqual([
      ["new", "connecting"],
      ["change", "connecting"],
      ["keep", "connected"],
    ]);
    await manager.waitForStartup();
    const after = manager.pids();
    expect(after.keep).toBe(before.keep);
    expect(after.change).not.toBe(before.change);
    expect(after.drop).toBeUndefined();
    await until(() => !alive(before.drop) && !alive(before.change), 3000, "the replaced servers to stop");
    expect(manager.tools().map((t) => t.name)).not.toContain("mcp__drop__echo");
    expect(manager.tools().map((t) => t.name)).toContain("mcp__new__echo");
  });

  it("tells listeners about every change", async () => {
    const { manager } = managed();
    const seen: string[] = [];
    const off = manager.onChange(() => seen.push(manager.servers().map((s) => s.status).join(",")));
    manager.setServers([plan("s", stdioFixture("s"))]);
    await manager.waitForStartup();
    off();
    expect(seen[0]).toBe("connecting");
    expect(seen.at(-1)).toBe("connected");
  });
});

describe("a stdio server's environment", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pith-mcp-cwd-"));
  afterEach(() => rmSync(path.join(dir, "sub"), { recursive: true, force: true }));

  it("gets its own env and a safe subset of pith's, never pith's API keys; cwd resolves against the session's", async () => {
    const { manager } = managed({ cwd: dir, env: { PATH: process.env.PATH, HOME: "/home/pith-test", ANTHROPIC_API_KEY: "sk-ant-secret", LANG: "C.UTF-8" } });
    const { plans } = resolveServers({
      global: { e: { ...stdioFixture("e"), env: { GREETING: "hello ${WHO:-world}" }, cwd: "." } },
      env: { WHO: "pith" },
    });
    manager.setServers(plans);
    await manager.waitForStartup();
    const env = async (name: string) => (await callTool(manager, "mcp__e__env", { name })).text;
    expect(await env("GREETING")).toBe("hello pith");
    expect(await env("HOME")).toBe("/home/pith-test");
    expect(await env("LANG")).toBe("C.UTF-8");
    expect(await env("ANTHROPIC_API_KEY")).toBe("(unset)");
    expect((await callTool(manager, "mcp__e__cwd", {})).text).toBe(dir);
  });
});

describe("tool names across servers", () => {
  it("resolve collisions deterministically, and each name reaches its own server", async () => {
    const { manager } = managed();
    manager.setServers([plan("a_b", stdioFixture("underscore")), plan("a.b", stdioFixture("dot"))]);
    await manager.waitForStartup();
    const [underscore, dot] = manager.servers();
    expect(dot.tools).toContain("mcp__a_b__echo"); // "a.b" sorts before "a_b"
    const other = underscore.tools.find((n) => n.startsWith("mcp__a_b__echo_"));
    expect(other).toMatch(/^mcp__a_b__echo_[0-9a-f]{8}$/);
    expect((await callTool(manager, "mcp__a_b__echo", { text: "x" })).text).toBe("dot: x");
    expect((await callTool(manager, other as string, { text: "x" })).text).toBe("underscore: x");
    const names = manager.tools().map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
  });
});

describe("a model without image input", () => {
  it("gets images described instead", async () => {
    const { manager } = managed({ modelAcceptsImages: () => false });
    manager.setServers([plan("img", stdioFixture("img"))]);
    await manager.waitForStartup();
    const r = await callTool(manager, "mcp__img__image", {});
    expect(r.result.content).toEqual([
      { type: "text", text: "a 1x1 png" },
      { type: "text", text: "[image: image/png, 70 bytes; the current model does not accept images]" },
    ]);
  });
});
