// What a mode decides for a call no rule speaks for, by the tool's declared effect
// (src/shared/tool-effect.ts), never by its name:
//
// | effect                                  | allow | ask | ask-writes | read-only |
// |-----------------------------------------|-------|-----|------------|-----------|
// | read-only, session, delegates           | allow | ask | allow      | allow     |
// | writes-files, runs-commands, unknown    | allow | ask | ask        | deny      |
//
// `delegates` (the `task` tool) runs because each of its subagents' calls is judged on its own.
import { changesNothing, type ToolEffect } from "../shared/tool-effect.js";
import type { PermissionMode, Verdict } from "./types.js";

export function isPermissionMode(value: unknown): value is PermissionMode {
  return value === "allow" || value === "ask" || value === "ask-writes" || value === "read-only";
}

export function modeVerdict(mode: PermissionMode, effect: ToolEffect): Verdict {
  switch (mode) {
    case "allow":
      return "allow";
    case "ask":
      return "ask";
    case "ask-writes":
      return changesNothing(effect) ? "allow" : "ask";
    case "read-only":
      return changesNothing(effect) ? "allow" : "deny";
  }
}

const DOES: Record<ToolEffect, string> = {
  "read-only": "only reads",
  session: "changes only the session",
  delegates: "delegates to subagents whose calls are judged on their own",
  "writes-files": "writes files",
  "runs-commands": "runs commands",
  unknown: "is not declared read-only",
};

/** The reason text for a mode's verdict. */
export function modeReason(mode: PermissionMode, toolName: string, effect: ToolEffect, verdict: Verdict): string {
  if (verdict === "allow") return `The permission mode "${mode}" lets ${toolName} run.`;
  if (verdict === "deny") return `The permission mode "${mode}" runs only tools declared read-only, and ${toolName} ${DOES[effect]}; no rule allows it.`;
  return `The permission mode "${mode}" asks before ${toolName} runs unless a rule allows it.`;
}
