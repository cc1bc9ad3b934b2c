// The vocabulary of the MCP layer: server configurations (Claude Code's `.mcp.json` shapes),
// where a server came from, and what a host is told about it. No SDK types here: this module
// is imported eagerly, the SDK only on first connection.

/** A server pith starts as a child process and talks to over stdin/stdout. */
export interface McpStdioConfig {
  type: "stdio";
  command: string;
  args: string[];
  /** Extra environment variables for the child (on top of a small safe inherited set). */
  env: Record<string, string>;
  /** Working directory of the child; relative paths resolve against the session's cwd. */
  cwd?: string;
}

/** A remote server over streamable HTTP (`type: "http"`) or the legacy HTTP+SSE transport. */
export interface McpRemoteConfig {
  type: "http" | "sse";
  url: string;
  headers: Record<string, string>;
}

export type McpServerConfig = McpStdioConfig | McpRemoteConfig;

/**
 * Where a server's configuration came from. `global`: the user's settings; `project`: the
 * project's `.pith/settings.json`; `mcp-json`: the project's `.mcp.json`; `host`: set by the
 * host (`set_mcp_servers`). `project` and `mcp-json` are project-level: they start only when
 * the user enables them (`mcp.projectServers`).
 */
export type McpSource = "global" | "project" | "mcp-json" | "host";

export const PROJECT_SOURCES: readonly McpSource[] = ["project", "mcp-json"];

/**
 * One server as the manager should run it: a config to connect, or a reason not to.
 * `config` present → started; `disabled` → status `disabled`; `invalid` → status `failed`.
 */
export interface McpServerPlan {
  name: string;
  source: McpSource;
  config?: McpServerConfig;
  /** Why the server is not started on purpose (a gated project server, `disabled: true`). */
  disabled?: string;
  /** Why the configuration cannot be used (names the server and field). */
  invalid?: string;
}

export type McpServerStatusKind = "connecting" | "connected" | "failed" | "disabled";

/** What `get_mcp_servers` reports for one server. */
export interface McpServerStatus {
  name: string;
  source: McpSource;
  status: McpServerStatusKind;
  error?: string;
  /** Full tool names the model sees (`mcp__<server>__<tool>`). */
  tools: string[];
}

/** A tool as the server lists it (the subset of MCP's `Tool` pith uses). */
export interface McpToolInfo {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /** The server's `readOnlyHint` annotation: true only when the server says so. */
  readOnly?: boolean;
}

/** Where server output that is not protocol goes: stdio servers' stderr, connection events. */
export type McpLogSink = (server: string, text: string) => void;

/** Tunables of the MCP layer (settings `mcp.*`); every field has a default. */
export interface McpTimeouts {
  /** Longest a server may take to connect and list its tools. Default 10 s. */
  startupTimeoutMs: number;
  /** Longest one tool call may take. Default 10 minutes. */
  toolTimeoutMs: number;
  /** Least time between two restarts of a crashed or unreachable server. Default 1 minute. */
  restartIntervalMs: number;
  /** After closing a stdio server's stdin, how long before SIGTERM, then SIGKILL. Default 1 s. */
  killGraceMs: number;
}

export const DEFAULT_MCP_TIMEOUTS: McpTimeouts = {
  startupTimeoutMs: 10_000,
  toolTimeoutMs: 600_000,
  restartIntervalMs: 60_000,
  killGraceMs: 1_000,
};
