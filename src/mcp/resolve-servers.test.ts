import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readMcpJson } from "./mcp-json.js";
import { resolveServers, serverMapProblems } from "./resolve-servers.js";

const env = { TOKEN: "t0k" };

describe("resolveServers", () => {
  it("merges global < .mcp.json < project < host, naming each server's source", () => {
    const { plans, notices } = resolveServers({
      global: { a: { command: "global-a" }, b: { command: "global-b" }, c: { command: "global-c" }, d: { command: "global-d" } },
      mcpJson: { b: { command: "json-b" }, e: { command: "json-e" } },
      project: { c: { command: "project-c" } },
      host: { d: { type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer ${TOKEN}" } } },
      projectServers: true,
      env,
    });
    expect(notices).toEqual([]);
    expect(plans.map((p) => [p.name, p.source, p.config?.type === "stdio" ? p.config.command : p.config?.type])).toEqual([
      ["a", "global", "global-a"],
      ["b", "mcp-json", "json-b"],
      ["c", "project", "project-c"],
      ["d", "host", "http"],
      ["e", "mcp-json", "json-e"],
    ]);
    expect(plans[3].config).toEqual({ type: "http", url: "http://127.0.0.1:1/mcp", headers: { Authorization: "Bearer t0k" } });
  });

  it("skips project-level servers unless enabled, says so once, and lets a global server keep its name", () => {
    const { plans, notices } = resolveServers({
      global: { shared: { command: "global-shared" } },
      mcpJson: { shared: { command: "evil" }, db: { command: "db-server" } },
      project: { browser: { command: "browser" }, db: { command: "db-2" } },
      env,
    });
    expect(plans.map((p) => [p.name, p.source, p.config ? "run" : p.disabled ? "disabled" : "invalid"])).toEqual([
      ["shared", "global", "run"],
      ["db", "project", "disabled"],
      ["browser", "project", "disabled"],
    ]);
    expect((plans[0].config as { command: string }).command).toBe("global-shared");
    expect(plans[1].disabled).toMatch(/add "db" to mcp.projectServers/);
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^pith: MCP project servers not started: shared, db, browser\./);
    expect(notices[0]).toContain('"projectServers": true');
  });

  it("starts only the project servers mcp.projectServers names", () => {
    const { plans, notices } = resolveServers({ mcpJson: { db: { command: "db" }, browser: { command: "b" } }, projectServers: ["db"], env });
    expect(plans.map((p) => [p.name, !!p.config])).toEqual([
      ["db", true],
      ["browser", false],
    ]);
    expect(notices).toEqual([expect.stringContaining("not started: browser.")]);
  });

  it("never gates global or host servers", () => {
    const { plans, notices } = resolveServers({ global: { g: { command: "g" } }, host: { h: { command: "h" } }, projectServers: false, env });
    expect(plans.every((p) => p.config)).toBe(true);
    expect(notices).toEqual([]);
  });

  it("turns bad entries, unset variables and disabled: true into plans that say why", () => {
    const { plans, notices } = resolveServers({
      global: { bad: { command: 3 }, unset: { command: "x", env: { K: "${NOT_SET}" } }, off: { command: "x", disabled: true }, badUrl: { type: "http", url: "${TOKEN}" } },
      project: [],
      projectServers: true,
      env,
      where: { global: "/home/u/.pith/settings.json", project: "/p/.pith/settings.json" },
    });
    expect(plans).toEqual([
      { name: "bad", source: "global", invalid: "/home/u/.pith/settings.json: mcpServers.bad.command: must be a non-empty string" },
      { name: "unset", source: "global", invalid: expect.stringContaining("mcpServers.unset.env.K: ${NOT_SET} is not set") },
      { name: "off", source: "global", disabled: "disabled in /home/u/.pith/settings.json" },
      { name: "badUrl", source: "global", invalid: expect.stringMatching(/mcpServers\.badUrl\.url: not a valid URL/) },
    ]);
    expect(plans[3].invalid).not.toContain("t0k");
    expect(notices).toEqual([
      plans[0].invalid,
      plans[1].invalid,
      plans[3].invalid,
      "/p/.pith/settings.json: mcpServers must be an object mapping server names to servers",
    ]);
  });
});

describe("serverMapProblems", () => {
  it("lists every problem of a host's server map, and none for a good one", () => {
    expect(serverMapProblems({ ok: { command: "x" } }, "set_mcp_servers", env)).toEqual([]);
    expect(serverMapProblems({ a: { command: 1 }, b: { type: "sse" } }, "set_mcp_servers", env)).toEqual([
      "set_mcp_servers: mcpServers.a.command: must be a non-empty string",
      "set_mcp_servers: mcpServers.b.url: required",
    ]);
    expect(serverMapProblems("x", "set_mcp_servers", env)).toEqual(["set_mcp_servers: mcpServers must be an object mapping server names to servers"]);
  });
});

describe("readMcpJson", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "pith-mcp-json-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const sub = (name: string) => {
    const d = path.join(dir, name);
    mkdirSync(d, { recursive: true });
    return d;
  };

  it("reads Claude Code's format", async () => {
    const d = sub("ok");
    writeFileSync(path.join(d, ".mcp.json"), JSON.stringify({ mcpServers: { db: { command: "db-server", args: ["--ro"] } } }));
    expect(await readMcpJson(d)).toEqual({ path: path.join(d, ".mcp.json"), servers: { db: { command: "db-server", args: ["--ro"] } } });
  });

  it("is empty without a file and explains a broken one", async () => {
    const none = sub("none");
    expect(await readMcpJson(none)).toEqual({ path: path.join(none, ".mcp.json") });
    const standIn = sub("stand-in/.mcp.json"); // the sandbox's empty folder for a missing file
    expect(await readMcpJson(path.dirname(standIn))).toEqual({ path: standIn });
    const bad = sub("bad");
    writeFileSync(path.join(bad, ".mcp.json"), "{ nope");
    expect((await readMcpJson(bad)).error).toMatch(/\.mcp\.json: not valid JSON/);
    writeFileSync(path.join(bad, ".mcp.json"), JSON.stringify({ servers: {} }));
    expect((await readMcpJson(bad)).error).toMatch(/expected \{"mcpServers"/);
  });
});
