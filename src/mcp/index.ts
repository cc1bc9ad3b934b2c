// Public surface of the MCP layer (may import shared and tools). Importing it
// does not load the MCP SDK: that happens on the first connection (load-sdk.ts).
//
// How the composition root and the session use it:
//   1. `readMcpJson(cwd)` and the settings' `mcpServers` → `resolveServers({...})` →
//      `{plans, notices}`; write the notices to stderr (at startup only: later calls repeat them).
//      `mcp.projectServers` must be read from the global settings, never the project's.
//   2. `new McpManager({cwd, env, timeouts, log})`, then `manager.setServers(plans)`: servers
//      connect in the background.
//   3. Before a prompt's first model request: `await manager.waitForStartup(signal)`, then
//      `manager.retryFailed()` (background reconnects, at most once a minute per server; the
//      prompt does not wait for them). Before each model request: `manager.tools()` (cheap;
//      the same array until `manager.version` changes).
//   4. `get_mcp_servers` → `{servers: manager.servers()}`; `set_mcp_servers {servers}` →
//      `serverMapProblems(servers, "set_mcp_servers", env)` (refuse when not empty), then
//      `resolveServers({... host: servers})` and `manager.setServers(plans)`.
//   5. On exit: `await manager.shutdown()`; `killAllProcessGroups()` (tools) also reaches the
//      stdio servers' process groups when pith dies without a clean shutdown.
export { McpManager, type McpManagerOptions } from "./manager.js";
export { resolveServers, serverMapProblems, type McpConfigSources, type ResolvedServers } from "./resolve-servers.js";
export { readMcpJson, MCP_JSON, type McpJsonFile } from "./mcp-json.js";
export { parseServerMap, type ParsedServer, type ParsedServerMap } from "./parse-config.js";
export { createFileLogSink, type FileLogSink } from "./file-log.js";
export { MAX_TOOL_NAME_LENGTH, TOOL_NAME_PATTERN } from "./tool-names.js";
export {
  DEFAULT_MCP_TIMEOUTS,
  PROJECT_SOURCES,
  type McpLogSink,
  type McpServerConfig,
  type McpServerPlan,
  type McpServerStatus,
  type McpServerStatusKind,
  type McpSource,
  type McpTimeouts,
} from "./types.js";
