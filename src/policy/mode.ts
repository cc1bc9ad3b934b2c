// What a mode decides for a call no rule speaks for:
//
// | tool                                    | allow | ask | ask-writes | read-only |
// |-----------------------------------------|-------|-----|------------|-----------|
// | read, grep, find, ls                    | allow | ask | allow      | allow     |
// | todo_write (changes only the session)   | allow | ask | allow      | allow     |
// | task (its subagents' calls are gated)   | allow | ask | allow      | allow     |
// | edit, write, bash                       | allow | ask | ask        | deny      |
// | any other (host, extension, MCP tools)  | allow | ask | ask        | allow     |
import type { PermissionMode, Verdict } from "./types.js";

const READS = new Set(["read", "grep", "find", "ls", "todo_write", "task"]);
const WRITES = new Set(["edit", "write", "bash"]);

export function isPermissionMode(value: unknown): value is PermissionMode {
  return value === "allow" || value === "ask" || value === "ask-writes" || value === "read-only";
}

export function modeVerdict(mode: PermissionMode, toolName: string): Verdict {
  switch (mode) {
    case "allow":
      return "allow";
    case "ask":
      return "ask";
    case "ask-writes":
      return READS.has(toolName) ? "allow" : "ask";
    case "read-only":
      return WRITES.has(toolName) ? "deny" : "allow";
  }
}

/** The reason text for a mode's verdict. */
export function modeReason(mode: PermissionMode, toolName: string, verdict: Verdict): string {
  if (verdict === "allow") return `The permission mode "${mode}" lets ${toolName} run.`;
  if (verdict === "deny") return `The permission mode "${mode}" does not let ${toolName} run unless a rule allows it.`;
  return `The permission mode "${mode}" asks before ${toolName} runs unless a rule allows it.`;
}
