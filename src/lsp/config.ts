// From the `lsp` settings to the servers this session may use: settings merged field by field
// over the built-in table, each command looked up on PATH (a missing one is simply not used and
// says why), the server for a file by its type, and the workspace root of a file.
import { existsSync } from "node:fs";
import path from "node:path";
import { findOnPath } from "../tools/index.js";
import { BUILTIN_SERVERS, installedInitOptions, languageIdOf } from "./defaults.js";
import type { LspSettings, ServerConfig, ServerPlan } from "./types.js";

/** Servers only settings name come first (they win a file type over a built-in), then the built-ins. */
export function planServers(settings: Pick<LspSettings, "servers">, pathEnv: string | undefined, cwd: string): ServerPlan[] {
  const own = Object.keys(settings.servers).filter((n) => !Object.hasOwn(BUILTIN_SERVERS, n));
  return [...own, ...Object.keys(BUILTIN_SERVERS)].map((name) => planOne(name, { ...BUILTIN_SERVERS[name], ...settings.servers[name] }, pathEnv, cwd));
}

function planOne(name: string, merged: Partial<ServerConfig>, pathEnv: string | undefined, cwd: string): ServerPlan {
  const fileTypes = merged.fileTypes ?? [];
  const config: ServerConfig = { ...merged, command: merged.command ?? "", fileTypes };
  const language = merged.language ?? (fileTypes[0] ? languageIdOf(path.extname(fileTypes[0]) || fileTypes[0]) : name);
  const plan: ServerPlan = { name, language, config };
  if (merged.disabled) return { ...plan, unusable: { status: "disabled", reason: `lsp.servers.${name}.disabled is set` } };
  if (!config.command || fileTypes.length === 0) {
    return { ...plan, unusable: { status: "disabled", reason: `lsp.servers.${name} needs "command" and "fileTypes"` } };
  }
  const resolved = resolveCommand(config.command, pathEnv, cwd);
  if (!resolved) return { ...plan, unusable: { status: "unavailable", reason: `${config.command} is not on PATH` } };
  const own = merged.initOptions === undefined || merged.initOptions === BUILTIN_SERVERS[name]?.initOptions;
  const installed = own ? installedInitOptions(name, resolved) : undefined;
  if (installed) config.initOptions = { ...config.initOptions, ...installed };
  return { ...plan, resolved };
}

/**
 * A bare name is looked up on PATH only: never in the project's own folders (a repository's
 * `node_modules/.bin` must not choose what pith runs). A path is taken as given (relative to the cwd).
 */
function resolveCommand(command: string, pathEnv: string | undefined, cwd: string): string | undefined {
  if (!command.includes("/")) return findOnPath(command, pathEnv) ?? undefined;
  const abs = path.resolve(cwd, command);
  return existsSync(abs) ? abs : undefined;
}

/** Whether `plan` handles the file: its extension or its exact name is one of the file types. */
export function handles(plan: ServerPlan, absPath: string): boolean {
  const ext = path.extname(absPath).toLowerCase();
  const base = path.basename(absPath);
  return plan.config.fileTypes.some((t) => (t.startsWith(".") ? t.toLowerCase() === ext : t === base));
}

/** The first usable server for the file, if any. */
export function usableServerFor(plans: readonly ServerPlan[], absPath: string): ServerPlan | undefined {
  return plans.find((p) => !p.unusable && handles(p, absPath));
}

/**
 * The workspace root of a file: the nearest folder up from it holding a root marker, not above
 * the session's cwd when the file is inside it; else the cwd (or, outside it, the file's folder).
 */
export function rootFor(absPath: string, markers: readonly string[], cwd: string): string {
  const inside = absPath === cwd || absPath.startsWith(cwd.endsWith(path.sep) ? cwd : cwd + path.sep);
  const fallback = inside ? cwd : path.dirname(absPath);
  for (let dir = path.dirname(absPath); ; dir = path.dirname(dir)) {
    if (markers.some((m) => existsSync(path.join(dir, m)))) return dir;
    if ((inside && dir === cwd) || path.dirname(dir) === dir) return fallback;
  }
}
