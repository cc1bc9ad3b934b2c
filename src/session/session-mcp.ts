// The session's MCP servers: the manager the composition root built (src/mcp/ runs the servers),
// seen from the session. Its tools join the model's tool list before every request, a prompt
// waits for the servers still starting (bounded by mcp.startupTimeoutMs) and restarts failed ones
// in the background, the host sets its own servers (`set_mcp_servers`), and closing the session
// ends them all.
import type { McpManager, McpServerStatus } from "../mcp/index.js";
import { PithError } from "../shared/errors.js";
import type { Tool } from "../tools/types.js";

/** What the composition root hands a session: the manager (once loaded) and the host-server setter. */
export interface McpWiring {
  /** The running manager; none while no server was ever configured (the MCP layer is not loaded). */
  readonly manager: McpManager | undefined;
  /**
   * `set_mcp_servers`: replaces the host's servers (an `mcpServers`-shaped map) and updates the
   * manager. Rejects with `PithError("invalid_request")` naming every problem; nothing changes then.
   */
  setHostServers(servers: unknown): Promise<void>;
  /** Ends every server and flushes the MCP log. */
  close(): Promise<void>;
  /** Which of the manager's tools this session offers (a subagent's agent definition); all when absent. */
  readonly allowTool?: (name: string) => boolean;
}

export class SessionMcp {
  private closed?: Promise<void>;

  constructor(private readonly wiring?: McpWiring) {}

  /** The MCP tools to offer the model now (`mcp__<server>__<tool>`). */
  tools(): Tool[] {
    const all = this.wiring?.manager?.tools() ?? [];
    const allow = this.wiring?.allowTool;
    return allow ? all.filter((t) => allow(t.name)) : all;
  }

  /** `get_mcp_servers`: every server with its source, status, error and tool names. */
  servers(): McpServerStatus[] {
    return this.wiring?.manager?.servers() ?? [];
  }

  /** `set_mcp_servers`: the host's servers; answers with the list as it now stands. */
  async setHostServers(servers: unknown): Promise<McpServerStatus[]> {
    if (!this.wiring || this.closed) throw new PithError("unavailable", "MCP servers are not available in this session");
    await this.wiring.setHostServers(servers);
    return this.servers();
  }

  /** Before a prompt's first model request: wait for servers still starting, retry failed ones. */
  async beforePrompt(signal: AbortSignal): Promise<void> {
    const manager = this.wiring?.manager;
    if (!manager) return;
    await manager.waitForStartup(signal);
    manager.retryFailed();
  }

  /** Ends every server (once). */
  close(): Promise<void> {
    this.closed ??= this.wiring?.close() ?? Promise.resolve();
    return this.closed;
  }
}
