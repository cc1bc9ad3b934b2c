// From the four places MCP servers are configured to the list the manager runs.
//
// Precedence (a later source replaces a server of the same name): global settings <
// `.mcp.json` < project settings < host (`set_mcp_servers`). Project-level servers (`.mcp.json`
// and project settings) run only when `mcp.projectServers` is `true` or lists their name: a
// cloned repository must not start programs by itself. `projectServers` must therefore come
// from the user's global settings (or the host), never from project settings. A gated server
// is reported `disabled` (unless a global or host server of that name takes its place) and one
// notice names them all. `${VAR}` references are expanded here, from the env map given.
import { checkExpanded, expandConfig, parseServerMap, type ParsedServer } from "./parse-config.js";
import { PROJECT_SOURCES, type McpServerPlan, type McpSource } from "./types.js";

export interface McpConfigSources {
  /** `mcpServers` of the global settings (`PITH_HOME/settings.json`). */
  global?: unknown;
  /** `mcpServers` of the project settings (`<cwd>/.pith/settings.json`). */
  project?: unknown;
  /** `mcpServers` of the project's `.mcp.json` (mcp-json.ts reads it). */
  mcpJson?: unknown;
  /** Servers the host set with `set_mcp_servers` (same shape). */
  host?: unknown;
  /** `mcp.projectServers` from the user's global settings: `true`, or the names allowed. */
  projectServers?: boolean | readonly string[];
  /** Variables for `${VAR}` expansion. */
  env: Readonly<Record<string, string | undefined>>;
  /** How each source is named in messages (file paths); defaults below. */
  where?: Partial<Record<McpSource, string>>;
}

export interface ResolvedServers {
  /** One plan per server name, in first-seen order. */
  plans: McpServerPlan[];
  /** Lines for stderr: the skipped project servers (once), configuration problems. */
  notices: string[];
}

const ORDER: readonly McpSource[] = ["global", "mcp-json", "project", "host"];

const DEFAULT_WHERE: Record<McpSource, string> = {
  global: "global settings",
  "mcp-json": ".mcp.json",
  project: "project settings",
  host: "set_mcp_servers",
};

const RAW_KEY: Record<McpSource, keyof McpConfigSources> = { global: "global", "mcp-json": "mcpJson", project: "project", host: "host" };

export function resolveServers(src: McpConfigSources): ResolvedServers {
  const where = { ...DEFAULT_WHERE, ...src.where };
  const notices: string[] = [];
  const chosen = new Map<string, McpServerPlan>();
  const skipped: string[] = [];
  const gated = new Set<string>();
  for (const source of ORDER) {
    const parsed = parseServerMap(src[RAW_KEY[source]], where[source]);
    if (parsed.error) notices.push(parsed.error);
    for (const server of parsed.servers) {
      if (PROJECT_SOURCES.includes(source) && !projectAllowed(src.projectServers, server.name)) {
        skipped.push(server.name);
        // A gated server never displaces a global one; it only shows up when nothing else has the name.
        if (!chosen.has(server.name) || gated.has(server.name)) {
          chosen.set(server.name, { name: server.name, source, disabled: gatedReason(server.name) });
          gated.add(server.name);
        }
        continue;
      }
      const plan = toPlan(server, source, where[source], src.env);
      if (plan.invalid) notices.push(plan.invalid);
      chosen.set(server.name, plan);
      gated.delete(server.name);
    }
  }
  if (skipped.length > 0) notices.unshift(skippedNotice([...new Set(skipped)]));
  return { plans: [...chosen.values()], notices };
}

/** Every problem in a server map (for `set_mcp_servers`, which refuses bad input whole). */
export function serverMapProblems(raw: unknown, where: string, env: Readonly<Record<string, string | undefined>>): string[] {
  const parsed = parseServerMap(raw, where);
  if (parsed.error) return [parsed.error];
  return parsed.servers.map((s) => toPlan(s, "host", where, env).invalid).filter((p): p is string => p !== undefined);
}

function projectAllowed(setting: McpConfigSources["projectServers"], name: string): boolean {
  return setting === true || (Array.isArray(setting) && setting.includes(name));
}

function gatedReason(name: string): string {
  return `project server not enabled: add "${name}" to mcp.projectServers (or set it to true) in your global settings to start it`;
}

function skippedNotice(names: string[]): string {
  return (
    `pith: MCP project servers not started: ${names.join(", ")}. A project's .mcp.json and .pith/settings.json ` +
    `cannot start programs by themselves; set "mcp": {"projectServers": true} (or a list of names) in your global settings to allow them.`
  );
}

function toPlan(server: ParsedServer, source: McpSource, where: string, env: McpConfigSources["env"]): McpServerPlan {
  const base = { name: server.name, source };
  if (server.invalid) return { ...base, invalid: server.invalid };
  if (!server.config) return { ...base, invalid: `${where}: mcpServers.${server.name}: no configuration` };
  if (server.disabled) return { ...base, disabled: `disabled in ${where}` };
  const expanded = expandConfig(server.config, env);
  if ("missing" in expanded) return { ...base, invalid: `${where}: mcpServers.${server.name}${expanded.missing}` };
  const late = checkExpanded(expanded.config);
  if (late) return { ...base, invalid: `${where}: mcpServers.${server.name}${late}` };
  return { ...base, config: expanded.config };
}
