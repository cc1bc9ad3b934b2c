// What a tool does to the world, declared once where the tool is defined. Permission modes
// decide by the effect, never by a tool's name; path rules judge the places a call declares.
//
// | effect          | what the tool does                                                    | ask-writes | read-only |
// |-----------------|-----------------------------------------------------------------------|------------|-----------|
// | `read-only`     | reads files or computes; changes nothing outside pith                 | runs       | runs      |
// | `session`       | changes only the session's own state (its todo list, its final result) | runs       | runs      |
// | `delegates`     | starts subagents whose every tool call is judged on its own            | runs       | runs      |
// | `writes-files`  | writes the files it declares (`paths`)                                 | asks       | denied    |
// | `runs-commands` | runs programs or code, which may do anything                           | asks       | denied    |
// | `unknown`       | not declared read-only (host, extension and MCP tools by default)      | asks       | denied    |
//
// (Mode `allow` runs every call and `ask` asks for every call, whatever the effect.)

export type ToolEffect = "read-only" | "session" | "delegates" | "writes-files" | "runs-commands" | "unknown";

export const TOOL_EFFECTS: readonly ToolEffect[] = ["read-only", "session", "delegates", "writes-files", "runs-commands", "unknown"];

/** Whether a tool with this effect changes nothing a read-only mode protects (files, processes, the world). */
export function changesNothing(effect: ToolEffect): boolean {
  return effect === "read-only" || effect === "session" || effect === "delegates";
}

/**
 * A place one call acts on, as the model wrote it: `file`, that one file; `tree`, a folder and
 * everything under it (a search, a listing, a rewrite over a folder; `/` alone means the cwd, as
 * the search tools read it).
 */
export interface ToolPath {
  path: string;
  scope: "file" | "tree";
}

/**
 * The one place `args[key]` names, or `fallback` when the argument is absent (a tool's default,
 * e.g. the cwd). A value of another type names nothing: such a call fails validation and never runs.
 */
export function pathArg(args: Record<string, unknown>, key: string, scope: ToolPath["scope"], fallback?: string): ToolPath[] {
  const v = args[key];
  if (typeof v === "string") return [{ path: v, scope }];
  return v === undefined && fallback !== undefined ? [{ path: fallback, scope }] : [];
}
