// THE decision for one tool call: `decidePermission(call, rules, mode, cwd)`.
//
// Order: a matching deny rule denies; else a matching ask rule asks; else a matching allow
// rule allows; else the mode decides (mode.ts). Bash commands are judged part by part
// (decide-bash.ts): allowed only if every part is. Path tools are judged on the resolved path
// (path-call.ts). The answer's `reason` says who decided and why, ready for a tool error result.
//
// Wiring: call it after the extension `tool_call` hooks and before the tool runs; pass the
// session's rules with the session's "Allow always" rules appended to `allow`. "deny" → the
// call's result is an error carrying `reason`; "ask" → ask-dialog.ts; "allow" → run.
// `rules` must have passed `validatePermissionRules` (a bad rule throws here).
import { homedir } from "node:os";
import { decideBash } from "./decide-bash.js";
import { describePath, judgedPath, pathRuleMatches } from "./path-call.js";
import type { PathContext } from "./path-pattern.js";
import { parseRules, PATH_TOOLS, ruleAppliesTo, type ParsedRules } from "./rule.js";
import type { PermissionCall, PermissionDecision, PermissionMode, PermissionRules } from "./types.js";
import { fromMode, fromRule } from "./verdicts.js";

export interface DecideOptions {
  /** The home folder `~` means. Default: the OS home. */
  home?: string;
}

export async function decidePermission(
  call: PermissionCall,
  rules: PermissionRules,
  mode: PermissionMode,
  cwd: string,
  opts: DecideOptions = {},
): Promise<PermissionDecision> {
  const parsed = parseRules(rules);
  const ctx: PathContext = { cwd, home: opts.home ?? homedir() };
  if (call.toolName === "bash") return decideBash(call, parsed, mode, ctx);
  if ((PATH_TOOLS as readonly string[]).includes(call.toolName)) return decidePathCall(call, parsed, mode, ctx);
  return decidePlain(call.toolName, parsed, mode);
}

function decidePlain(toolName: string, rules: ParsedRules, mode: PermissionMode): PermissionDecision {
  for (const list of ["deny", "ask", "allow"] as const) {
    const hit = rules[list].find((r) => ruleAppliesTo(r, toolName));
    if (hit) return fromRule(list, [hit]);
  }
  return fromMode(mode, toolName);
}

async function decidePathCall(call: PermissionCall, rules: ParsedRules, mode: PermissionMode, ctx: PathContext): Promise<PermissionDecision> {
  const raw = typeof call.arguments.path === "string" ? call.arguments.path : undefined;
  const path = await judgedPath(call.toolName, raw, ctx);
  for (const list of ["deny", "ask", "allow"] as const) {
    for (const rule of rules[list]) {
      if (!ruleAppliesTo(rule, call.toolName)) continue;
      if (await pathRuleMatches(rule, path, list, ctx)) return fromRule(list, [rule], describePath(path));
    }
  }
  return fromMode(mode, call.toolName);
}
