// The MCP keys of settings.json: `mcpServers` (kept apart per file, since where a server comes
// from decides whether it may start) and `mcp` (tunables; `mcp.projectServers` is honoured in
// the global file only: a project must not enable its own servers).

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
const positive = { check: (v: unknown) => Number.isInteger(v) && (v as number) > 0, expected: "a positive integer (milliseconds)" };

/** The validation rules of the MCP keys (merged into settings.ts's table). */
export const MCP_SPEC = {
  mcpServers: { check: isObj, expected: 'an object mapping server names to servers ({"command": ...} or {"type": "http", "url": ...})' },
  mcp: {
    projectServers: {
      check: (v: unknown) => typeof v === "boolean" || (Array.isArray(v) && v.every((s) => typeof s === "string")),
      expected: "true, false or an array of server names",
    },
    startupTimeoutMs: positive,
    toolTimeoutMs: positive,
  },
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
