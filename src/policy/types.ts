// The vocabulary of permissions: modes, rule lists, the call being judged and the verdict.

/**
 * What happens to a tool call no rule speaks for (README "Permissions"):
 * - `allow`: it runs (today's behaviour, the default);
 * - `ask`: every call asks;
 * - `ask-writes`: read/grep/find/ls (and todo_write) run; edit/write/bash and every other tool ask;
 * - `read-only`: edit/write/bash are denied; everything else runs.
 */
export type PermissionMode = "allow" | "ask" | "ask-writes" | "read-only";

export const PERMISSION_MODES: readonly PermissionMode[] = ["allow", "ask", "ask-writes", "read-only"];

/** The three rule lists, each of rules in Claude Code's syntax: `Tool` or `Tool(specifier)`. */
export interface PermissionRules {
  allow?: readonly string[];
  ask?: readonly string[];
  deny?: readonly string[];
}

export type RuleList = "allow" | "ask" | "deny";

/** The tool call being judged, as the agent loop has it (arguments already validated). */
export interface PermissionCall {
  toolName: string;
  arguments: Record<string, unknown>;
}

export type Verdict = "allow" | "ask" | "deny";

export interface PermissionDecision {
  decision: Verdict;
  /** The rule that decided, as written (several joined with ", " when every part of a compound command needed one). */
  rule?: string;
  /** Which list that rule came from; absent when the mode decided. */
  list?: RuleList;
  /** For people: who decided and why. Goes into the tool error result of a denied call. */
  reason: string;
}
