// Where a rule listens (`scope`, `globs`): assistant text, thinking, any tool call,
// or tool calls by name and/or path glob. Tool names compare case-insensitively.
import { compileLinearGlob } from "../shared/linear-glob.js";

export interface ToolScope {
  /** Lower-cased tool name; undefined = any tool. */
  tool?: string;
  /** Path glob the call's path arguments must match; undefined = any path. */
  glob?: (path: string) => boolean;
}

export interface RuleScope {
  text: boolean;
  thinking: boolean;
  anyTool: boolean;
  tools: ToolScope[];
}

const TOOL_TOKEN = /^(?:(tool)(?::([a-z0-9_-]+))?|([a-z0-9_-]+))(?:\(([^)]+)\))?$/i;
const DEFAULT_SCOPE: RuleScope = { text: true, thinking: false, anyTool: true, tools: [] };

/** A glob test over candidate paths, also trying each path's basename (globs run on the linear-time engine; one it cannot take matches nothing). */
export function compileGlob(glob: string): (path: string) => boolean {
  let test: (path: string) => boolean;
  try {
    test = compileLinearGlob(glob.trim());
  } catch {
    return () => false;
  }
  return (p) => {
    const normal = p.replace(/\\/g, "/");
    const base = normal.slice(normal.lastIndexOf("/") + 1);
    return test(normal) || (base !== normal && test(base));
  };
}

/** Splits a comma-separated scope string, keeping commas inside `(...)` or `{...}`. */
export function splitScopeString(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "(" || c === "{") depth++;
    else if ((c === ")" || c === "}") && depth > 0) depth--;
    else if (c === "," && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out.map((s) => s.trim()).filter((s) => s !== "");
}

/** Parses scope tokens; invalid tokens are reported through `invalid` and ignored. */
export function parseScope(tokens: string[] | undefined, invalid: (token: string) => void = () => undefined): RuleScope {
  if (!tokens || tokens.length === 0) return { ...DEFAULT_SCOPE, tools: [] };
  const scope: RuleScope = { text: false, thinking: false, anyTool: false, tools: [] };
  for (const token of tokens) {
    const lower = token.toLowerCase();
    if (lower === "text") scope.text = true;
    else if (lower === "thinking") scope.thinking = true;
    else if (lower === "tool" || lower === "toolcall") scope.anyTool = true;
    else {
      const m = TOOL_TOKEN.exec(token);
      if (!m) {
        invalid(token);
        continue;
      }
      const tool = (m[2] ?? (m[1] ? undefined : m[3]))?.toLowerCase();
      const glob = m[4]?.trim();
      if (!tool && !glob) scope.anyTool = true;
      else scope.tools.push({ tool, glob: glob ? compileGlob(glob) : undefined });
    }
  }
  return scope;
}

/** True when the scope can match anything at all. */
export function isReachable(scope: RuleScope): boolean {
  return scope.text || scope.thinking || scope.anyTool || scope.tools.length > 0;
}

/** True when a tool call with this (lower-cased) name and these path candidates is in scope. */
export function toolInScope(scope: RuleScope, name: string | undefined, paths: string[]): boolean {
  if (scope.anyTool) return true;
  return scope.tools.some((t) => (!t.tool || t.tool === name) && (!t.glob || paths.some(t.glob)));
}
