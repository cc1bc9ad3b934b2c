// Permission rules in Claude Code's syntax: `Tool` or `Tool(specifier)`.
// - Built-in tool names are case-insensitive (`Bash(npm test)` = `bash(npm test)`).
// - By what a tool declares (its effect and its paths), not by its name: `edit(...)` and
//   `write(...)` rules govern every tool that writes files (edit, write, ast_edit, notebook,
//   hashline edits); `read(...)` rules govern every read-only tool that reads declared paths
//   (read, grep, find, ls, ast_grep, inspect_image, display_image). A bash redirection is a
//   `write` of its file, so edit rules govern it too.
// - MCP tools go by their full name `mcp__server__tool`; `mcp__server` and `mcp__server__*`
//   name every tool of that server.
// - Specifiers: a command pattern for bash (bash-pattern.ts), a path glob for the rule names
//   of Claude Code's path tools (path-pattern.ts). Any other tool takes no specifier.
import { compileBashPattern, type BashPattern } from "./bash-pattern.js";
import { compilePathPattern, type PathPattern } from "./path-pattern.js";
import type { PermissionCall, PermissionRules, RuleList } from "./types.js";

/** Rule names that take a path specifier. */
export const PATH_TOOLS = ["read", "edit", "write", "grep", "find", "ls"] as const;
const BUILTIN = new Set(["read", "bash", "edit", "write", "grep", "find", "ls", "todo_write"]);
/** A call judged without a family (a bash redirection, judged as `write`): edit rules govern it too. */
const FAMILY: Record<string, readonly string[]> = { edit: ["write"] };

/** Which path rules govern a call besides those naming its tool (see pathFamily). */
export type PathFamily = "read" | "write";

/**
 * `write` for a tool that writes files (edit/write rules govern it, wherever it writes); `read`
 * for a read-only tool that declares the paths it reads (read rules govern it); else none.
 */
export function pathFamily(call: PermissionCall): PathFamily | undefined {
  if (call.effect === "writes-files") return "write";
  if (call.effect === "read-only" && call.paths !== undefined) return "read";
  return undefined;
}

export interface ParsedRule {
  /** As written. */
  text: string;
  /** Normalised tool name, or the `mcp__server` prefix for a server rule. */
  tool: string;
  /** True for `mcp__server` / `mcp__server__*`: every tool of that server. */
  server: boolean;
  bash?: BashPattern;
  path?: PathPattern;
}

const NAME = /^[A-Za-z0-9_.-]+$/;

/** Parses one rule; throws an Error whose message says what is wrong with it. */
export function parseRule(text: string): ParsedRule {
  if (typeof text !== "string") throw new Error("a rule must be a string");
  const trimmed = text.trim();
  const open = trimmed.indexOf("(");
  const rawName = open === -1 ? trimmed : trimmed.slice(0, open).trim();
  if (open !== -1 && !trimmed.endsWith(")")) throw new Error(`rule "${text}": missing ")" at the end`);
  const specifier = open === -1 ? undefined : trimmed.slice(open + 1, -1);
  const mcpServer = /^mcp__([A-Za-z0-9_-]+?)(__\*)?$/.exec(rawName);
  if (mcpServer && (mcpServer[2] || !rawName.slice(5).includes("__"))) {
    if (specifier !== undefined) throw new Error(`rule "${text}": an MCP server rule takes no specifier`);
    return { text, tool: `mcp__${mcpServer[1]}`, server: true };
  }
  if (!NAME.test(rawName)) throw new Error(`rule "${text}": "${rawName}" is not a tool name`);
  const tool = BUILTIN.has(rawName.toLowerCase()) ? rawName.toLowerCase() : rawName;
  const rule: ParsedRule = { text, tool, server: false };
  if (specifier === undefined || specifier.trim() === "*") return rule;
  try {
    if (tool === "bash") rule.bash = compileBashPattern(specifier);
    else if ((PATH_TOOLS as readonly string[]).includes(tool)) rule.path = compilePathPattern(specifier);
    else throw new Error(`"${tool}" takes no specifier (specifiers are for bash and ${PATH_TOOLS.join(", ")})`);
  } catch (err) {
    throw new Error(`rule "${text}": ${(err as Error).message}`);
  }
  return rule;
}

/** Whether the rule speaks about calls of `toolName` (of path family `family`) at all, before its specifier is looked at. */
export function ruleAppliesTo(rule: ParsedRule, toolName: string, family?: PathFamily): boolean {
  if (rule.server) return toolName.startsWith(`${rule.tool}__`);
  if (rule.tool === toolName) return true;
  if (family === "write") return rule.tool === "edit" || rule.tool === "write";
  if (family === "read") return rule.tool === "read";
  return FAMILY[rule.tool]?.includes(toolName) ?? false;
}

export interface ParsedRules {
  allow: ParsedRule[];
  ask: ParsedRule[];
  deny: ParsedRule[];
}

const cache = new Map<string, ParsedRule>();

function parseCached(text: string): ParsedRule {
  let rule = cache.get(text);
  if (!rule) {
    rule = parseRule(text);
    if (cache.size > 2000) cache.clear();
    cache.set(text, rule);
  }
  return rule;
}

/** Every rule of the three lists parsed; throws on the first bad one (validate first with validatePermissionRules). */
export function parseRules(rules: PermissionRules): ParsedRules {
  const list = (name: RuleList) => (rules[name] ?? []).map(parseCached);
  return { allow: list("allow"), ask: list("ask"), deny: list("deny") };
}

/**
 * Checks a `permissions` settings value (or a `set_permissions` payload): the lists are
 * arrays of valid rules. Returns one message per problem, `permissions.deny[2]: ...`; empty when valid.
 */
export function validatePermissionRules(rules: unknown, where = "permissions"): string[] {
  if (rules === undefined) return [];
  if (typeof rules !== "object" || rules === null || Array.isArray(rules)) return [`${where}: expected an object with allow, ask and deny lists`];
  const errors: string[] = [];
  for (const name of ["allow", "ask", "deny"] as const) {
    const list = (rules as Record<string, unknown>)[name];
    if (list === undefined) continue;
    if (!Array.isArray(list)) {
      errors.push(`${where}.${name}: expected an array of rules`);
      continue;
    }
    list.forEach((text, i) => {
      try {
        parseRule(text as string);
      } catch (err) {
        errors.push(`${where}.${name}[${i}]: ${(err as Error).message}`);
      }
    });
  }
  return errors;
}
