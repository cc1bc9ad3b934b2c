// The MCP manager: one per session. It runs the servers a session is configured with
// (`setServers`, from resolve-servers.ts), connecting them in the background; reports them the
// way `get_mcp_servers` answers (`servers()`); offers their tools in pith's tool contract
// (`tools()`, re-read before each model request: `version` changes whenever the list does); lets
// a prompt wait for the servers still starting (`waitForStartup`, bounded by the startup
// timeout); and ends them all (`shutdown`). The MCP SDK is loaded on the first connection only.
import type { Tool } from "../tools/types.js";
import { createMcpTool } from "./mcp-tool.js";
import { openWithSdk } from "./load-sdk.js";
import type { OpenClient, OpenOptions, WrapCommand } from "./open-client.js";
import { raceAbort } from "./race-abort.js";
import { ServerConnection } from "./server-connection.js";
import { assignToolNames, toolKeyString } from "./tool-names.js";
import { DEFAULT_MCP_TIMEOUTS, type McpLogSink, type McpServerPlan, type McpServerStatus, type McpTimeouts } from "./types.js";

export interface McpManagerOptions {
  /** The session's working directory (default cwd of stdio servers). */
  cwd: string;
  /** pith's environment (stdio servers inherit only a safe subset; `${VAR}` is expanded earlier). */
  env: Readonly<Record<string, string | undefined>>;
  timeouts?: Partial<McpTimeouts>;
  /** Where server stderr and connection events go (never stdout). Default: dropped. */
  log?: McpLogSink;
  /** Sent to servers in `initialize`. */
  clientInfo?: { name: string; version: string };
  /** Whether image results reach the model as images (else they are described). Default yes. */
  modelAcceptsImages?: () => boolean;
  now?: () => number;
  /** Rewrites a stdio server's command line before it is spawned (the sandbox: it runs inside bubblewrap). */
  wrapCommand?: WrapCommand;
  /** How a connection is opened; default the official SDK, loaded on first use. */
  open?: (o: OpenOptions) => Promise<OpenClient>;
}

export class McpManager {
  private readonly connections = new Map<string, ServerConnection>();
  private readonly closing = new Set<Promise<void>>();
  private readonly listeners = new Set<() => void>();
  private readonly timeouts: McpTimeouts;
  private cache?: { tools: Tool[]; names: Map<ServerConnection, string[]> };
  private changes = 0;
  private stopped = false;

  constructor(private readonly opts: McpManagerOptions) {
    this.timeouts = { ...DEFAULT_MCP_TIMEOUTS, ...opts.timeouts };
  }

  /**
   * Makes the running set match `plans`: servers whose plan is unchanged keep running, changed
   * ones are restarted, removed ones are shut down. Connecting happens in the background.
   */
  setServers(plans: readonly McpServerPlan[]): void {
    if (this.stopped) return;
    const wanted = new Map(plans.map((p) => [p.name, p])); // a name given twice: the last plan wins
    const unique = [...wanted.values()];
    for (const [name, conn] of this.connections) {
      const next = wanted.get(name);
      if (next && samePlan(next, conn.plan)) wanted.delete(name);
      else this.remove(name, conn);
    }
    const kept = new Map(this.connections);
    this.connections.clear();
    for (const plan of unique) {
      const conn = kept.get(plan.name) ?? new ServerConnection(plan, this.connectionDeps(plan.name));
      this.connections.set(plan.name, conn);
      if (wanted.has(plan.name)) conn.start();
    }
    this.changed();
  }

  /** Every server with its status and the full names of the tools the model sees from it. */
  servers(): McpServerStatus[] {
    const { names } = this.build();
    return [...this.connections.values()].map((c) => ({
      name: c.name,
      source: c.plan.source,
      status: c.status,
      ...(c.error !== undefined ? { error: c.error } : {}),
      tools: names.get(c) ?? [],
    }));
  }

  /** The MCP tools to offer the model now (the same array until something changes). */
  tools(): Tool[] {
    return this.build().tools;
  }

  /** Changes whenever `servers()` or `tools()` would answer differently. */
  get version(): number {
    return this.changes;
  }

  /** Calls `listener` after every change (status, tool list). Returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Waits for the servers still connecting (each bounded by the startup timeout), or until `signal` fires. */
  async waitForStartup(signal?: AbortSignal): Promise<void> {
    const pending = [...this.connections.values()].map((c) => c.ready());
    await raceAbort(Promise.all(pending), signal, "aborted").catch(() => undefined);
  }

  /**
   * Starts reconnecting, in the background, the failed servers whose restart is due (at most
   * once a minute each): a server that could not start, or lost its connection, comes back
   * without waiting for a call to one of its tools (it has none while it never connected).
   */
  retryFailed(): void {
    for (const c of this.connections.values()) c.retryIfFailed();
  }

  /** The pids (= process groups) of the running stdio servers. */
  pids(): Record<string, number> {
    return Object.fromEntries([...this.connections].flatMap(([name, c]) => (c.pid !== undefined ? [[name, c.pid]] : [])));
  }

  /** Shuts every server down (stdio process groups end); later `setServers` calls are ignored. */
  async shutdown(): Promise<void> {
    this.stopped = true;
    for (const [name, conn] of this.connections) this.remove(name, conn);
    this.changed();
    await Promise.all([...this.closing]);
  }

  private remove(name: string, conn: ServerConnection): void {
    this.connections.delete(name);
    const p = conn.close().finally(() => this.closing.delete(p));
    this.closing.add(p);
  }

  private connectionDeps(name: string) {
    return {
      open: this.opts.open ?? openWithSdk,
      cwd: this.opts.cwd,
      env: this.opts.env,
      wrapCommand: this.opts.wrapCommand,
      timeouts: this.timeouts,
      clientInfo: this.opts.clientInfo ?? { name: "pith", version: "0.0.0" },
      log: (line: string) => this.opts.log?.(name, line),
      acceptsImages: this.opts.modelAcceptsImages ?? (() => true),
      now: this.opts.now ?? Date.now,
      onChange: () => this.changed(),
    };
  }

  private changed(): void {
    this.cache = undefined;
    this.changes++;
    for (const listener of this.listeners) listener();
  }

  private build(): { tools: Tool[]; names: Map<ServerConnection, string[]> } {
    if (this.cache) return this.cache;
    const conns = [...this.connections.values()];
    const keys = conns.flatMap((c) => c.tools.map((t) => ({ server: c.name, tool: t.name })));
    const assigned = assignToolNames(keys);
    const tools: Tool[] = [];
    const names = new Map<ServerConnection, string[]>();
    for (const c of conns) {
      const mine: string[] = [];
      for (const info of c.tools) {
        const full = assigned.get(toolKeyString({ server: c.name, tool: info.name }));
        if (full === undefined || mine.includes(full)) continue; // a server listing one name twice
        mine.push(full);
        tools.push(createMcpTool(full, c.name, info, (tool, args, ctx) => c.call(tool, args, ctx)));
      }
      names.set(c, mine);
    }
    this.cache = { tools, names };
    return this.cache;
  }
}

function samePlan(a: McpServerPlan, b: McpServerPlan): boolean {
  const key = (p: McpServerPlan) => JSON.stringify([p.source, p.config ?? null, p.disabled ?? null, p.invalid ?? null]);
  return key(a) === key(b);
}
