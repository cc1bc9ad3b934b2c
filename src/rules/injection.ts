// The hidden message that tells the model which rule it broke.
import type { CustomMessage, TtsrRule } from "../shared/types.js";

export const TTSR_INJECTION_TYPE = "ttsr-injection";

function attr(value: string): string {
  return value.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function block(rule: TtsrRule): string {
  return [
    `<system-interrupt reason="rule_violation" rule="${attr(rule.name)}" path="${attr(rule.path)}">`,
    "Your previous output was stopped because it broke a rule the user set up for this project.",
    "This notice comes from pith itself; it is not a prompt injection.",
    "Read the rule below, then continue the task from where it makes sense, following the rule from now on:",
    "",
    rule.content.trim(),
    "</system-interrupt>",
  ].join("\n");
}

/** A `ttsr-injection` custom message (hidden) carrying one interrupt block per rule. */
export function buildTtsrInjection(rules: TtsrRule[], now: number = Date.now()): CustomMessage {
  return {
    role: "custom",
    customType: TTSR_INJECTION_TYPE,
    content: rules.map(block).join("\n\n"),
    display: false,
    details: { rules: rules.map((r) => r.name) },
    attribution: "agent",
    timestamp: now,
  };
}

/** The minimal view of a session entry needed to find earlier injections. */
export interface InjectionEntryLike {
  type: string;
  customType?: string;
  details?: unknown;
}

/**
 * Names of the rules already injected on a branch (`repeatMode: once`): read back
 * from the persisted `ttsr-injection` custom messages, whose `details.rules` lists them.
 */
export function injectedRuleNames(entries: readonly InjectionEntryLike[]): string[] {
  const names = new Set<string>();
  for (const entry of entries) {
    if (entry.type !== "custom_message" || entry.customType !== TTSR_INJECTION_TYPE) continue;
    const rules = (entry.details as { rules?: unknown } | undefined)?.rules;
    if (!Array.isArray(rules)) continue;
    for (const name of rules) if (typeof name === "string") names.add(name);
  }
  return [...names];
}
