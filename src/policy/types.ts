// The vocabulary of permissions: modes, rule lists, the call being judged and the verdict.
import type { ToolEffect, ToolPath } from "../shared/tool-effect.js";

/**
 * What happens to a tool call no rule speaks for, by the tool's declared effect (mode.ts):
 * - `allow`: it runs (the default);
 * - `ask`: every call asks;
 * - `ask-writes`: tools that change nothing run (read-only, session-only, delegating); every
 *   other tool asks;
 * - `read-only`: tools that change nothing run; every other tool is denied.
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
  /** What the tool does, as it declares; absent: `unknown` (judged as a tool that may change anything). */
  effect?: ToolEffect;
  /**
   * The places the call reads (a `read-only` tool: `read(...)` rules judge them) or writes (a
   * `writes-files` tool: `edit(...)` and `write(...)` rules), as the tool declares them.
   */
  paths?: readonly ToolPath[];
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
