// Validation of an `mcpServers` map (settings files, `.mcp.json`, `set_mcp_servers`) into
// typed server configs, and `${VAR}` expansion of the string fields Claude Code expands
// (command, args, env, cwd, url, headers). Every problem is reported as
// `<where>: mcpServers.<name>.<field>: <what is wrong>`, one server at a time: a bad entry
// never hides the good ones.
import { Type, type Static, type TSchema } from "typebox";
import { schemaProblem } from "../shared/schema/explain.js";
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

const text = (expected: string) => Type.String({ expected });
const nonEmpty = () => Type.String({ pattern: "\\S", expected: "a non-empty string" });
const strings = () => Type.Array(text("a string"), { expected: "an array of strings" });
const stringRecord = () => Type.Record(Type.String(), text("a string"), { expected: "an object of strings" });
const disabled = Type.Optional(Type.Boolean({ expected: "a boolean" }));

/** A stdio server entry (other keys, e.g. Claude Code's, are ignored). */
const StdioEntrySchema = Type.Object({
  disabled,
  command: nonEmpty(),
  args: Type.Optional(strings()),
  env: Type.Optional(stringRecord()),
  cwd: Type.Optional(text("a string")),
});

/** A remote (`http`, `sse`) server entry. */
const RemoteEntrySchema = Type.Object({ disabled, url: nonEmpty(), headers: Type.Optional(stringRecord()) });

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

/** `entry` checked against `schema`; the first problem as `.<key path>: ...`. */
function checked<T extends TSchema>(schema: T, entry: Json): Static<T> {
  const problem = schemaProblem(schema, entry);
  if (!problem) return entry as Static<T>;
  throw new FieldError(`.${problem.path}: ${problem.missing ? "required" : `must be ${problem.expected}`}`);
}

function parseEntry(entry: unknown): { config: McpServerConfig; disabled: boolean } {
  if (!isObject(entry)) throw new FieldError(": must be an object");
  // Without a type: a `url` alone means streamable HTTP (as Cursor and VS Code read it), else stdio.
  const type = entry.type ?? (entry.url !== undefined && entry.command === undefined ? "http" : "stdio");
  if (type === "stdio") {
    const e = checked(StdioEntrySchema, entry);
    const config: McpServerConfig = { type: "stdio", command: e.command, args: e.args ?? [], env: { ...e.env }, cwd: e.cwd };
    return { disabled: e.disabled ?? false, config };
  }
  if (type === "http" || type === "sse") {
    const e = checked(RemoteEntrySchema, entry);
    return { disabled: e.disabled ?? false, config: { type, url: e.url, headers: { ...e.headers } } };
  }
  throw new FieldError(`.type: must be "stdio", "http" or "sse" (got ${JSON.stringify(type)})`);
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
