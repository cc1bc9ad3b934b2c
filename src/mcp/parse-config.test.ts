import { describe, expect, it } from "vitest";
import { checkExpanded, expandConfig, parseServerMap } from "./parse-config.js";

describe("parseServerMap", () => {
  it("reads the three Claude Code shapes, with defaults for the optional fields", () => {
    const parsed = parseServerMap(
      {
        files: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { DEBUG: "1" }, cwd: "tools" },
        bare: { command: "my-server" },
        explicit: { type: "stdio", command: "x" },
        remote: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
        legacy: { type: "sse", url: "https://mcp.example.com/sse" },
        urlOnly: { url: "https://mcp.example.com/mcp" },
      },
      "settings.json",
    );
    expect(parsed.error).toBeUndefined();
    expect(parsed.servers).toEqual([
      { name: "files", disabled: false, config: { type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { DEBUG: "1" }, cwd: "tools" } },
      { name: "bare", disabled: false, config: { type: "stdio", command: "my-server", args: [], env: {}, cwd: undefined } },
      { name: "explicit", disabled: false, config: { type: "stdio", command: "x", args: [], env: {}, cwd: undefined } },
      { name: "remote", disabled: false, config: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${TOKEN}" } } },
      { name: "legacy", disabled: false, config: { type: "sse", url: "https://mcp.example.com/sse", headers: {} } },
      { name: "urlOnly", disabled: false, config: { type: "http", url: "https://mcp.example.com/mcp", headers: {} } },
    ]);
  });

  it("names the source, the server and the field of every problem, and keeps the good servers", () => {
    const parsed = parseServerMap(
      {
        good: { command: "ok" },
        noCommand: { args: [] },
        emptyCommand: { command: "  " },
        badArg: { command: "x", args: ["a", 2] },
        badEnv: { command: "x", env: { A: 1 } },
        badType: { type: "websocket", url: "ws://x" },
        noUrl: { type: "http" },
        badHeaders: { type: "sse", url: "https://x", headers: ["a"] },
        notObject: "npx server",
        badDisabled: { command: "x", disabled: "yes" },
        "": { command: "x" },
      },
      "/p/.mcp.json",
    );
    const problems = Object.fromEntries(parsed.servers.map((s) => [s.name, s.invalid]));
    expect(problems).toEqual({
      good: undefined,
      noCommand: "/p/.mcp.json: mcpServers.noCommand.command: required",
      emptyCommand: "/p/.mcp.json: mcpServers.emptyCommand.command: must be a non-empty string",
      badArg: "/p/.mcp.json: mcpServers.badArg.args[1]: must be a string",
      badEnv: "/p/.mcp.json: mcpServers.badEnv.env.A: must be a string",
      badType: '/p/.mcp.json: mcpServers.badType.type: must be "stdio", "http" or "sse" (got "websocket")',
      noUrl: "/p/.mcp.json: mcpServers.noUrl.url: required",
      badHeaders: "/p/.mcp.json: mcpServers.badHeaders.headers: must be an object of strings",
      notObject: "/p/.mcp.json: mcpServers.notObject: must be an object",
      badDisabled: "/p/.mcp.json: mcpServers.badDisabled.disabled: must be a boolean",
      "": "/p/.mcp.json: mcpServers: a server name must not be empty",
    });
  });

  it("reports a map that is not an object, and treats a missing map as empty", () => {
    expect(parseServerMap([{ command: "x" }], "settings.json")).toEqual({
      servers: [],
      error: "settings.json: mcpServers must be an object mapping server names to servers",
    });
    expect(parseServerMap(undefined, "x")).toEqual({ servers: [] });
    expect(parseServerMap(null, "x")).toEqual({ servers: [] });
  });

  it("carries disabled: true", () => {
    expect(parseServerMap({ off: { command: "x", disabled: true } }, "w").servers[0].disabled).toBe(true);
  });
});

describe("expandConfig", () => {
  const env = { HOME: "/home/u", TOKEN: "t0k" };

  it("expands command, args, env, cwd, url and headers", () => {
    expect(expandConfig({ type: "stdio", command: "${HOME}/bin/srv", args: ["--token=${TOKEN}"], env: { T: "${TOKEN}" }, cwd: "${HOME}" }, env)).toEqual({
      config: { type: "stdio", command: "/home/u/bin/srv", args: ["--token=t0k"], env: { T: "t0k" }, cwd: "/home/u" },
    });
    expect(expandConfig({ type: "http", url: "${BASE:-https://api.example.com}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } }, env)).toEqual({
      config: { type: "http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer t0k" } },
    });
  });

  it("names the field and the variable that is not set", () => {
    expect(expandConfig({ type: "stdio", command: "x", args: [], env: { GITHUB_TOKEN: "${GITHUB_TOKEN}" } }, env)).toEqual({
      missing: ".env.GITHUB_TOKEN: ${GITHUB_TOKEN} is not set (write ${NAME:-default} for a default)",
    });
    expect(expandConfig({ type: "sse", url: "${A}${B}", headers: {} }, env)).toEqual({
      missing: ".url: ${A}, ${B} are not set (write ${NAME:-default} for a default)",
    });
  });
});

describe("checkExpanded", () => {
  it("accepts http(s) URLs and rejects others without quoting the value", () => {
    expect(checkExpanded({ type: "http", url: "http://127.0.0.1:3000/mcp", headers: {} })).toBeUndefined();
    expect(checkExpanded({ type: "sse", url: "ftp://x/secret", headers: {} })).toBe(".url: must be an http:// or https:// URL (got ftp:)");
    const bad = checkExpanded({ type: "http", url: "not a url with s3cret", headers: {} });
    expect(bad).toMatch(/^\.url: not a valid URL/);
    expect(bad).not.toContain("s3cret");
    expect(checkExpanded({ type: "stdio", command: "x", args: [], env: {} })).toBeUndefined();
  });
});
