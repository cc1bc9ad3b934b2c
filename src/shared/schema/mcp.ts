// MCP servers as `get_mcp_servers` / `set_mcp_servers` report them.
import Type from "typebox";
import { literals } from "./primitives.js";

export const McpServerStatusSchema = Type.Object(
  {
    name: Type.String(),
    /** Where the configuration came from: global settings, project settings, `.mcp.json`, the host. */
    source: literals(["global", "project", "mcp-json", "host"]),
    status: literals(["connecting", "connected", "failed", "disabled"]),
    /** Why the server failed or is disabled. */
    error: Type.Optional(Type.String()),
    /** The full tool names the model sees (`mcp__<server>__<tool>`). */
    tools: Type.Array(Type.String()),
  },
  { description: "One MCP server: its source, status and the tools it offers the model." },
);
