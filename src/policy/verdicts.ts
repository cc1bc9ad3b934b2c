// Decisions with their reasons: made by a mode, or by one or more rules.
import type { ToolEffect } from "../shared/tool-effect.js";
import { modeReason, modeVerdict } from "./mode.js";
import type { ParsedRule } from "./rule.js";
import type { PermissionDecision, PermissionMode, RuleList } from "./types.js";

/** The mode decided (no rule spoke), by what the tool does. */
export function fromMode(mode: PermissionMode, toolName: string, effect: ToolEffect): PermissionDecision {
  const decision = modeVerdict(mode, effect);
  return { decision, reason: modeReason(mode, toolName, effect, decision) };
}

/** `rules` decided about `subject` (`"rm -rf x"`, `every part of the command`; absent: the call as a whole). */
export function fromRule(list: RuleList, rules: ParsedRule[], subject?: string): PermissionDecision {
  const names = rules.map((r) => `"${r.text}"`).join(" and ");
  const rule = rules.map((r) => r.text).join(", ");
  if (list === "allow") {
    const reason = `Allowed by the allow rule${rules.length > 1 ? "s" : ""} ${names}${subject ? ` for ${subject}` : ""}.`;
    return { decision: "allow", rule, list, reason };
  }
  return { decision: list, rule, list, reason: `The ${list} rule ${names} matches ${subject ?? "this call"}.` };
}
