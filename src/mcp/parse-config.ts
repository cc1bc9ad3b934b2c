// Validation of an `mcpServers` map (settings files, `.mcp.json`, `set_mcp_servers`) into
// typed server configs, and `${VAR}` expansion of the string fields Claude Code expands
// (command, args, env, cwd, url, headers). Every problem is reported as
// `<where>: mcpServers.<name>.<field>: <what is wrong>`, one server at a time: a bad entry
// never hides the good ones.
import { expandVars } from "./expand-vars.js";
import type { McpServerConfig } from "./types.js";

/** One entry of a map: its config when valid, else the reason it is not. */
export interface ParsedServer {
  name: string;
  config?: McpServerConfig;
  /** `"disabled": true` in the entry. */
  disabled: boolean;
  invalid?: string;
}

export interface ParsedServerMap {
  servers: ParsedServer[];
  /** A problem with the map as a whole (then `servers` is empty). */
  error?: string;
}

type Json = Record<string, unknown>;

class FieldError extends Error {}

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses `raw` (the value of `mcpServers`); `where` names the file or command it came from. */
export function parseServerMap(raw: unknown, where: string): ParsedServerMap {
  if (raw === undefined || raw === null) return { servers: [] };
  if (!isObject(raw)) return { servers: [], error: `${where}: mcpServers must be an object mapping server names to servers` };
  const servers: ParsedServer[] = [];
  for (const [name, entry] of Object.entries(raw)) {
    const at = `${where}: mcpServers.${name}`;
    if (!name.trim()) {
      servers.push({ name, disabled: false, invalid: `${where}: mcpServers: a server name must not be empty` });
      continue;
    }
    try {
      const { config, disabled } = parseEntry(entry);
      servers.push({ name, config, disabled });
    } catch (err) {
      if (!(err instanceof FieldError)) throw err;
      servers.push({ name, disabled: false, invalid: `${at}${err.message}` });
    }
  }
  return { servers };
}

function parseEntry(entry: unknown): { config: McpServerConfig; disabled: boolean } {
  if (!isObject(entry)) throw new FieldError(": must be an object");
  const disabled = optional(entry, "disabled", "boolean") ?? false;
  // Without a type: a `url` alone means streamable HTTP (as Cursor and VS Code read it), else stdio.
  const type = entry.type ?? (entry.url !== undefined && entry.command === undefined ? "http" : "stdio");
  if (type === "stdio") {
    return {
      disabled,
      config: {
        type: "stdio",
        command: nonEmpty(entry, "command"),
        args: stringArray(entry, "args"),
        env: stringRecord(entry, "env"),
        cwd: optional(entry, "cwd", "string"),
      },
    };
  }
  if (type === "http" || type === "sse") {
    return { disabled, config: { type, url: nonEmpty(entry, "url"), headers: stringRecord(entry, "headers") } };
  }
  throw new FieldError(`.type: must be "stdio", "http" or "sse" (got ${JSON.stringify(type)})`);
}

function optional<K extends "string" | "boolean">(o: Json, key: string, kind: K): (K extends "string" ? string : boolean) | undefined {
  const v = o[key];
  if (v === undefined) return undefined;
  if (typeof v !== kind) throw new FieldError(`.${key}: must be a ${kind}`);
  return v as K extends "string" ? string : boolean;
}

function nonEmpty(o: Json, key: string): string {
  const v = o[key];
  if (v === undefined) throw new FieldError(`.${key}: required`);
  if (typeof v !== "string" || !v.trim()) throw new FieldError(`.${key}: must be a non-empty string`);
  return v;
}

function stringArray(o: Json, key: string): string[] {
  const v = o[key];
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new FieldError(`.${key}: must be an array of strings`);
  v.forEach((item, i) => {
    if (typeof item !== "string") throw new FieldError(`.${key}[${i}]: must be a string`);
  });
  return v as string[];
}

function stringRecord(o: Json, key: string): Record<string, string> {
  const v = o[key];
  if (v === undefined) return {};
  if (!isObject(v)) throw new FieldError(`.${key}: must be an object of strings`);
  for (const [k, item] of Object.entries(v)) {
    if (typeof item !== "string") throw new FieldError(`.${key}.${k}: must be a string`);
  }
  return { ...(v as Record<string, string>) };
}

/**
 * Expands `${VAR}` references in the config's string fields; an unset variable without a
 * default makes the server unusable, named with the field it appears in.
 */
export function expandConfig(config: McpServerConfig, env: Readonly<Record<string, string | undefined>>): { config: McpServerConfig } | { missing: string } {
  const problems: string[] = [];
  const one = (field: string, value: string): string => {
    const r = expandVars(value, env);
    if (r.ok) return r.value;
    problems.push(`.${field}: ${r.missing.map((m) => `\${${m}}`).join(", ")} ${r.missing.length > 1 ? "are" : "is"} not set (write \${NAME:-default} for a default)`);
    return value;
  };
  const record = (field: string, rec: Record<string, string>) => Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, one(`${field}.${k}`, v)]));
  let out: McpServerConfig;
  if (config.type === "stdio") {
    out = {
      type: "stdio",
      command: one("command", config.command),
      args: config.args.map((a, i) => one(`args[${i}]`, a)),
      env: record("env", config.env),
      ...(config.cwd !== undefined ? { cwd: one("cwd", config.cwd) } : {}),
    };
  } else {
    out = { type: config.type, url: one("url", config.url), headers: record("headers", config.headers) };
  }
  return problems.length > 0 ? { missing: problems[0] } : { config: out };
}

/**
 * Checks what can only be checked after expansion: a remote server's URL. The value is not
 * quoted back: it may hold an expanded secret.
 */
export function checkExpanded(config: McpServerConfig): string | undefined {
  if (config.type === "stdio") return undefined;
  let url: URL;
  try {
    url = new URL(config.url);
  } catch (err) {
    return `.url: not a valid URL (${err instanceof Error ? err.message : String(err)})`;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return `.url: must be an http:// or https:// URL (got ${url.protocol})`;
  return undefined;
}
