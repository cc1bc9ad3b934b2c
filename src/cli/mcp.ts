// MCP in the composition root: from the settings files, the project's `.mcp.json` and the
// environment to a running McpManager for the session (src/mcp/index.ts says how). The MCP SDK
// is loaded by the manager on its first connection only: with no server configured, never.
import path from "node:path";
import { createFileLogSink, McpManager, readMcpJson, resolveServers, serverMapProblems, type McpTimeouts } from "../mcp/index.js";
import type { McpWiring } from "../session/index.js";
import { PITH_VERSION } from "../protocol/index.js";
import { PithError } from "../shared/errors.js";
import type { Settings } from "./settings.js";

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
}

/** Where stdio servers' stderr and connection events go. */
export function mcpLogPath(pithHome: string): string {
  return path.join(pithHome, "logs", "mcp.log");
}

/** Reads the configuration, writes its notices to stderr once, starts the servers in the background. */
export async function setUpMcp(o: McpSetupOptions): Promise<McpWiring> {
  const mcpJson = await readMcpJson(o.cwd);
  if (mcpJson.error) o.log(`pith: ${mcpJson.error}`);
  const base = {
    global: o.settings.mcpServers.global,
    project: o.settings.mcpServers.project,
    mcpJson: mcpJson.servers,
    projectServers: o.settings.mcp.projectServers,
    env: o.env,
    where: {
      global: path.join(o.pithHome, "settings.json"),
      project: path.join(o.cwd, ".pith", "settings.json"),
      "mcp-json": mcpJson.path,
    },
  };
  const first = resolveServers(base);
  for (const notice of first.notices) o.log(notice.startsWith("pith:") ? notice : `pith: ${notice}`);
  const sink = createFileLogSink(mcpLogPath(o.pithHome), o.log);
  const timeouts: Partial<McpTimeouts> = {};
  if (o.settings.mcp.startupTimeoutMs !== undefined) timeouts.startupTimeoutMs = o.settings.mcp.startupTimeoutMs;
  if (o.settings.mcp.toolTimeoutMs !== undefined) timeouts.toolTimeoutMs = o.settings.mcp.toolTimeoutMs;
  const manager = new McpManager({
    cwd: o.cwd,
    env: o.env,
    timeouts,
    log: sink.log,
    clientInfo: { name: "pith", version: PITH_VERSION },
    modelAcceptsImages: o.modelAcceptsImages,
  });
  manager.setServers(first.plans);
  return {
    manager,
    setHostServers: (servers) => {
      const problems = serverMapProblems(servers, "set_mcp_servers", o.env);
      if (problems.length > 0) throw new PithError("invalid_request", problems.join("; "));
      // Notices were written at startup; the host hears about its own servers from their status.
      manager.setServers(resolveServers({ ...base, host: servers }).plans);
    },
    close: async () => {
      await manager.shutdown();
      await sink.close();
    },
  };
}
