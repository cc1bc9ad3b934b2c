// One MCP tool in pith's tool contract (src/tools/types.ts): its full name, the server's JSON
// Schema as parameters (run-tool validates arguments against it), its effect from the server's
// `readOnlyHint` annotation, and `execute` delegating to the server's connection, which maps
// results, errors, progress and abort.
import type { AgentToolResult } from "../shared/types.js";
import type { Tool, ToolContext } from "../tools/types.js";
import type { McpToolInfo } from "./types.js";

export type McpCall = (tool: string, args: Record<string, unknown>, ctx: ToolContext) => Promise<AgentToolResult>;

export function createMcpTool(fullName: string, server: string, info: McpToolInfo, call: McpCall): Tool<Record<string, unknown>> {
  return {
    name: fullName,
    label: `${server}: ${info.title ?? info.name}`,
    description: info.description?.trim() || `The "${info.name}" tool of MCP server "${server}".`,
    parameters: objectSchema(info.inputSchema),
    // read-only only when the server annotates it `readOnlyHint: true`; any other tool may change anything
    effect: info.readOnly === true ? "read-only" : "unknown",
    concurrency: "shared",
    source: "mcp",
    execute: (args, ctx) => call(info.name, args ?? {}, ctx),
  };
}

/** MCP promises `type: "object"`; a schema without `properties` gets an empty one (some providers need it). */
function objectSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const s = schema && typeof schema === "object" ? schema : {};
  return { ...s, type: "object", properties: s.properties ?? {} };
}
