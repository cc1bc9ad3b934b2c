// THE decision for one tool call: `decidePermission(call, rules, mode, cwd)`.
//
// Order: a matching deny rule denies; else a matching ask rule asks; else a matching allow
// rule allows; else the mode decides by the tool's declared effect (mode.ts). Bash commands
// are judged part by part (decide-bash.ts): allowed only if every part is. A call that declares
// the places it reads or writes is judged on each of them, resolved (path-call.ts): a deny or
// ask rule matching any place decides; allow rules must cover every place.
//
// Wiring: call it after the extension `tool_call` hooks and before the tool runs, with the
// tool's effect and declared paths on the call; pass the session's rules with the project's
// "Allow always" rules appended to `allow`. "deny" → the call's result is an error carrying
// `reason`; "ask" → ask-dialog.ts; "allow" → run.
// `rules` must have passed `validatePermissionRules` (a bad rule throws here).
import { homedir } from "node:os";
import type { ToolEffect } from "../shared/tool-effect.js";
import { decideBash } from "./decide-bash.js";
import { describePath, judgedPath, pathRuleMatches, type JudgedPath } from "./path-call.js";
import type { PathContext } from "./path-pattern.js";
import { parseRules, pathFamily, ruleAppliesTo, type ParsedRule, type ParsedRules, type PathFamily } from "./rule.js";
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
  const family = pathFamily(call);
  const paths = family ? await Promise.all((call.paths ?? []).map((p) => judgedPath(p, ctx))) : [];
  const judged: Judged = { toolName: call.toolName, effect: call.effect ?? "unknown", family, paths };
  return (await restricted(judged, parsed, ctx)) ?? (await allowed(judged, parsed.allow, ctx)) ?? fromMode(mode, call.toolName, judged.effect);
}

interface Judged {
  toolName: string;
  effect: ToolEffect;
  family: PathFamily | undefined;
  /** The declared places, resolved; empty when the call declares none. */
  paths: JudgedPath[];
}

/** The first deny, then ask, rule that speaks for the call: a bare one, or a path rule matching any place (or a call whose places are unknown). */
async function restricted(call: Judged, rules: ParsedRules, ctx: PathContext): Promise<PermissionDecision | undefined> {
  for (const list of ["deny", "ask"] as const) {
    for (const rule of rules[list]) {
      if (!ruleAppliesTo(rule, call.toolName, call.family)) continue;
      if (call.paths.length === 0) return fromRule(list, [rule]);
      for (const p of call.paths) {
        if (await pathRuleMatches(rule, p, list, ctx)) return fromRule(list, [rule], describePath(p));
      }
    }
  }
  return undefined;
}

/** Allowed when every declared place is allowed by some allow rule (a call without places: by a bare rule). */
async function allowed(call: Judged, allow: ParsedRule[], ctx: PathContext): Promise<PermissionDecision | undefined> {
  const applying = allow.filter((r) => ruleAppliesTo(r, call.toolName, call.family));
  if (call.paths.length === 0) {
    const bare = applying.find((r) => !r.path);
    return bare ? fromRule("allow", [bare]) : undefined;
  }
  const used: ParsedRule[] = [];
  for (const p of call.paths) {
    let hit: ParsedRule | undefined;
    for (const r of applying) {
      if (await pathRuleMatches(r, p, "allow", ctx)) {
        hit = r;
        break;
      }
    }
    if (!hit) return undefined;
    if (!used.includes(hit)) used.push(hit);
  }
  return fromRule("allow", used, call.paths.length === 1 ? describePath(call.paths[0]) : "every path of the call");
}
