// How a pith tool call looks to an ACP client: its kind, a title, the files it touches.
import path from "node:path";
import { resolveToolPath } from "../shared/tool-paths.js";

export type AcpToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "switch_mode" | "other";

const KINDS: Record<string, AcpToolKind> = {
  read: "read",
  ls: "read",
  notebook: "edit",
  edit: "edit",
  write: "edit",
  ast_edit: "edit",
  grep: "search",
  find: "search",
  ast_grep: "search",
  bash: "execute",
  python: "execute",
  todo_write: "think",
  calc: "think",
  task: "think",
  fetch: "fetch",
  web_search: "fetch",
};

/**
 * The call as the editor should show it: a deferred tool reached through `call_tool`
 * is shown as itself, with its own arguments, as pith's tool events report it.
 */
export function shownCall(name: string, args: Record<string, unknown>): { name: string; args: Record<string, unknown> } {
  if (name !== "call_tool" || typeof args.name !== "string") return { name, args };
  const inner = args.arguments;
  return { name: args.name, args: inner !== null && typeof inner === "object" && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {} };
}

/** The ACP kind of a tool; MCP and host tools are `other`. */
export function toolKind(name: string): AcpToolKind {
  return KINDS[name] ?? "other";
}

/** Tools whose `path` argument is the one file they change (the diff pane shows it). */
export const FILE_WRITING_TOOLS: ReadonlySet<string> = new Set(["edit", "write"]);

function str(v: unknown): string | undefined {
  return typeof v === "string" && v.length > 0 ? v : undefined;
}

/** The absolute file or folder a call works on, when its arguments name one. */
export function toolPath(args: Record<string, unknown>, cwd: string): string | undefined {
  const p = str(args.path) ?? str(args.file_path) ?? str(args.notebook_path);
  return p === undefined ? undefined : resolveToolPath(p, cwd);
}

/** `locations` for the editor to follow the agent: the path (and line) a call works on. */
export function toolLocations(args: Record<string, unknown>, cwd: string): Array<{ path: string; line?: number }> {
  const p = toolPath(args, cwd);
  if (p === undefined) return [];
  const line = typeof args.offset === "number" && Number.isInteger(args.offset) && args.offset > 0 ? args.offset : undefined;
  return [line === undefined ? { path: p } : { path: p, line }];
}

function clip(text: string, max = 80): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** A one-line title an editor shows for the call. */
export function toolTitle(name: string, args: Record<string, unknown>, cwd: string): string {
  const p = toolPath(args, cwd);
  const rel = p === undefined ? undefined : path.relative(cwd, p) || ".";
  switch (name) {
    case "read":
      return `Read ${rel ?? "file"}`;
    case "write":
      return `Write ${rel ?? "file"}`;
    case "edit":
      return `Edit ${rel ?? "file"}`;
    case "ls":
      return `List ${rel ?? "."}`;
    case "bash":
      return str(args.command) ? `Run ${clip(args.command as string)}` : "Run command";
    case "grep":
      return str(args.pattern) ? `Search for ${clip(args.pattern as string)}` : "Search";
    case "find":
      return str(args.pattern) ? `Find ${clip(args.pattern as string)}` : "Find files";
    case "todo_write":
      return "Update the plan";
    default:
      return rel ? `${name} ${rel}` : name;
  }
}
