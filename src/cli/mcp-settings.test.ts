// The MCP keys of settings.json: `mcpServers` kept per file, `mcp.projectServers`
// honoured in the global file only, values checked with the key and the file named.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadSettings } from "./settings.js";

function files(global?: unknown, project?: unknown) {
  const dir = mkdtempSync(path.join(tmpdir(), "pith-mcp-settings-"));
  const globalPath = path.join(dir, "global.json");
  const projectPath = path.join(dir, "project.json");
  if (global !== undefined) writeFileSync(globalPath, JSON.stringify(global));
  if (project !== undefined) writeFileSync(projectPath, JSON.stringify(project));
  return { globalPath, projectPath };
}

describe("MCP settings", () => {
  it("keeps each file's mcpServers apart instead of merging them", () => {
    const paths = files({ mcpServers: { a: { command: "a" }, shared: { command: "g" } } }, { mcpServers: { shared: { command: "p" } } });
    const warnings: string[] = [];
    const s = loadSettings({ ...paths, warn: (m) => warnings.push(m) });
    expect(s.mcpServers).toEqual({ global: { a: { command: "a" }, shared: { command: "g" } }, project: { shared: { command: "p" } } });
    expect(s).not.toHaveProperty("mcpServers.shared");
    expect(warnings).toEqual([]);
  });

  it("honours mcp.projectServers from the global file only, saying so when a project sets it", () => {
    const paths = files({ mcp: { projectServers: ["db"], startupTimeoutMs: 5000 } }, { mcp: { projectServers: true, toolTimeoutMs: 1000 } });
    const warnings: string[] = [];
    const s = loadSettings({ ...paths, warn: (m) => warnings.push(m) });
    expect(s.mcp).toEqual({ projectServers: ["db"], startupTimeoutMs: 5000, toolTimeoutMs: 1000 });
    expect(warnings).toEqual([`Ignored setting mcp.projectServers in ${paths.projectPath}: only the global settings can allow project MCP servers`]);
  });

  it("has no MCP servers and default tunables without files", () => {
    const s = loadSettings({ ...files(), warn: () => {} });
    expect(s.mcp).toEqual({});
    expect(s.mcpServers).toEqual({});
  });

  it("refuses bad values naming the key and the file", () => {
    const bad = (v: unknown) => () => loadSettings({ ...files(v), warn: () => {} });
    expect(bad({ mcpServers: [] })).toThrow(/Invalid setting mcpServers in .*global\.json: expected an object mapping server names/);
    expect(bad({ mcp: { projectServers: "yes" } })).toThrow(/Invalid setting mcp\.projectServers .*: expected true, false or an array of server names/);
    expect(bad({ mcp: { startupTimeoutMs: 0 } })).toThrow(/Invalid setting mcp\.startupTimeoutMs .*: expected a positive integer/);
    expect(bad({ mcp: { toolTimeoutMs: 1.5 } })).toThrow(/Invalid setting mcp\.toolTimeoutMs/);
  });
});
