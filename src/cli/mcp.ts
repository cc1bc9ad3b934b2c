// MCP in the composition root: from the settings files, the project's `.mcp.json` and the
// environment to a running McpManager for the session (src/mcp/index.ts says how). Startup
// stays as fast as without MCP: with no server configured the MCP layer is not even imported
// until a host sets servers (`set_mcp_servers`), and the SDK loads on the first connection only.
import path from "node:path";
import type { McpConfigSources, McpManager, McpTimeouts } from "../mcp/index.js";
import { MCP_JSON, readMcpJson } from "../mcp/mcp-json.js";
import { PITH_VERSION } from "../protocol/index.js";
import type { McpWiring } from "../session/index.js";
import { PithError } from "../shared/errors.js";
import { settingsPaths, type Settings } from "./settings.js";

export interface McpSetupOptions {
  settings: Settings;
  cwd: string;
  pithHome: string;
  /** pith's environment: `${VAR}` expansion and the stdio servers' inherited safe subset. */
  env: Readonly<Record<string, string | undefined>>;
  /** stderr: the once-only notices (skipped project servers, bad entries). */
  log(message: string): void;
  /** Whether the current model takes images (else image results are described in text). */
  modelAcceptsImages(): boolean;
  /** The sandbox's wrapper: stdio servers run inside it (same roots and network rule as `bash`). */
  wrapCommand?: (line: { file: string; args: string[] }, cwd: string) => { file: string; args: string[] };
  /** The folder is trusted: its `.mcp.json` and project settings' servers may start. */
  trusted: boolean;
}

/** The session's wiring, plus what the composition root does when the folder is trusted later. */
export interface ProjectMcpWiring extends McpWiring {
  /** The folder was trusted while the session runs: its servers join (`settings`: the new settings). */
  trustProject(settings: Settings): Promise<void>;
}

/** Where stdio servers' stderr and connection events go. */
export function mcpLogPath(pithHome: string): string {
  return path.join(pithHome, "logs", "mcp.log");
}

type McpLayer = typeof import("../mcp/index.js");
interface Running {
  layer: McpLayer;
  manager: McpManager;
  closeLog(): Promise<void>;
}

/**
 * Reads the configuration; with servers, writes its notices to stderr once and starts them in the
 * background. An untrusted folder's servers (`.mcp.json`, project settings) are not even read; in a
 * trusted one they start unless the global `mcp.projectServers` is false or names others.
 */
export async function setUpMcp(o: McpSetupOptions): Promise<ProjectMcpWiring> {
  const files = settingsPaths(o.pithHome, o.cwd);
  let base: McpConfigSources = {
    global: o.settings.mcpServers.global,
    env: o.env,
    where: { global: files.globalPath, project: files.projectPath, "mcp-json": path.join(o.cwd, MCP_JSON) },
  };
  if (o.trusted) base = await withProject(base, o);
  let host: unknown;
  let loading: Promise<Running> | undefined;
  let running: Running | undefined;
  const load = (): Promise<Running> =>
    (loading ??= import("../mcp/index.js").then((layer) => {
      const sink = layer.createFileLogSink(mcpLogPath(o.pithHome), o.log);
      const manager = new layer.McpManager({
        cwd: o.cwd,
        env: o.env,
        timeouts: timeoutsOf(o.settings),
        log: sink.log,
        clientInfo: { name: "pith", version: PITH_VERSION },
        modelAcceptsImages: o.modelAcceptsImages,
        wrapCommand: o.wrapCommand,
      });
      running = { layer, manager, closeLog: sink.close };
      return running;
    }));
  /** Resolves every source now and hands the plans to the manager; `notify`: the stderr notices too. */
  const apply = async (notify: boolean) => {
    const { layer, manager } = await load();
    const resolved = layer.resolveServers(host === undefined ? base : { ...base, host });
    if (notify) for (const notice of resolved.notices) o.log(notice.startsWith("pith:") ? notice : `pith: ${notice}`);
    manager.setServers(resolved.plans);
  };

  if ([base.global, base.project, base.mcpJson].some((v) => v !== undefined)) await apply(true);
  return {
    get manager() {
      return running?.manager;
    },
    setHostServers: async (servers) => {
      if (!loading && isEmptyMap(servers)) return; // nothing configured, nothing set: nothing to load
      const { layer } = await load();
      const problems = layer.serverMapProblems(servers, "set_mcp_servers", o.env);
      if (problems.length > 0) throw new PithError("invalid_request", problems.join("; "));
      // The startup notices are not repeated; the host learns about its servers from their status.
      host = servers;
      await apply(false);
    },
    trustProject: async (settings) => {
      base = await withProject(base, { ...o, settings });
      if (loading || base.project !== undefined || base.mcpJson !== undefined) await apply(true);
    },
    close: async () => {
      if (!loading) return;
      const { manager, closeLog } = await loading;
      await manager.shutdown();
      await closeLog();
    },
  };
}

/** The sources with a trusted folder's servers: its `.mcp.json` and project settings' `mcpServers`. */
async function withProject(base: McpConfigSources, o: Pick<McpSetupOptions, "cwd" | "settings" | "log">): Promise<McpConfigSources> {
  const mcpJson = await readMcpJson(o.cwd);
  if (mcpJson.error) o.log(`pith: ${mcpJson.error}`);
  return {
    ...base,
    project: o.settings.mcpServers.project,
    mcpJson: mcpJson.servers,
    // trusting the folder allows its servers, unless the user's global settings limit them
    projectServers: o.settings.mcp.projectServers ?? true,
  };
}

function timeoutsOf(settings: Settings): Partial<McpTimeouts> {
  const t: Partial<McpTimeouts> = {};
  if (settings.mcp.startupTimeoutMs !== undefined) t.startupTimeoutMs = settings.mcp.startupTimeoutMs;
  if (settings.mcp.toolTimeoutMs !== undefined) t.toolTimeoutMs = settings.mcp.toolTimeoutMs;
  return t;
}

function isEmptyMap(v: unknown): boolean {
  return typeof v === "object" && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}

/**
 * A subagent's view of its parent's MCP servers: the same running servers (a `task` call starts
 * no server processes and waits for no startup of its own), their tools limited to what
 * `allowTool` lets through (and what the parent itself may use). It sets no servers and ends none:
 * the parent's session owns them.
 */
export function borrowMcp(parent: McpWiring, allowTool?: (name: string) => boolean): McpWiring {
  const outer = parent.allowTool;
  const allow = outer && allowTool ? (name: string) => outer(name) && allowTool(name) : (outer ?? allowTool);
  return {
    get manager() {
      return parent.manager;
    },
    allowTool: allow,
    setHostServers: () => Promise.reject(new PithError("unavailable", "A subagent uses its parent session's MCP servers")),
    close: async () => undefined,
  };
}
