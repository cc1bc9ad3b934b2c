// The MCP keys of settings.json: `mcpServers` (kept apart per file, since where a server comes
// from decides whether it may start) and `mcp` (tunables; `mcp.projectServers` is honoured in
// the global file only: a project must not enable its own servers).

import { Type } from "typebox";
import { positiveMs, section } from "./setting-schema.js";

/** `mcp` in settings.json. */
export interface McpSettings {
  /** `true`, or the names of the project servers (`.mcp.json`, project settings) allowed to start. */
  projectServers?: boolean | string[];
  startupTimeoutMs?: number;
  toolTimeoutMs?: number;
}

/** The raw `mcpServers` value of each settings file (validated later by src/mcp/parse-config.ts). */
export interface McpServerSettings {
  global?: unknown;
  project?: unknown;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
/** The schemas of the MCP keys (part of the settings schema). */
export const MCP_SCHEMA = {
  mcpServers: Type.Record(Type.String(), Type.Unknown(), { expected: 'an object mapping server names to servers ({"command": ...} or {"type": "http", "url": ...})' }),
  mcp: section({
    projectServers: Type.Union([Type.Boolean(), Type.Array(Type.String())], { expected: "true, false or an array of server names" }),
    startupTimeoutMs: positiveMs(),
    toolTimeoutMs: positiveMs(),
  }),
};

/**
 * Takes `mcpServers` out of one validated settings file (so files do not merge it) and drops
 * `mcp.projectServers` from a project file, saying so. Returns what is left to merge.
 */
export function takeMcpServers(
  validated: Record<string, unknown>,
  level: "global" | "project",
  file: string,
  warn: (message: string) => void,
): { rest: Record<string, unknown>; servers?: unknown } {
  const { mcpServers, ...rest } = validated;
  if (level === "project" && isObj(rest.mcp) && "projectServers" in rest.mcp) {
    const { projectServers: _ignored, ...mcp } = rest.mcp;
    rest.mcp = mcp;
    warn(`Ignored setting mcp.projectServers in ${file}: only the global settings can allow project MCP servers`);
  }
  return mcpServers === undefined ? { rest } : { rest, servers: mcpServers };
}
