// The files a summarised stretch of history touched:
// collected from `read` / `write` / `edit` tool calls, carried across compactions in the
// compaction entry's `details`, and listed at the end of the summary.
import type { AgentMessage } from "../../shared/types.js";

export interface FileOperations {
  /** Files only read (never written or edited), sorted. */
  readFiles: string[];
  /** Files written or edited, sorted. */
  modifiedFiles: string[];
}

const READ_TOOLS = new Set(["read"]);
const MODIFY_TOOLS = new Set(["write", "edit"]);
/** How many paths each list shows in the summary text. */
export const FILE_LIST_CAP = 20;

function pathArgument(args: Record<string, unknown> | undefined): string | undefined {
  const value = args?.path ?? args?.file_path;
  return typeof value === "string" && value.length > 0 ? value : undefined;
}

/** Reads a previous compaction's `details` leniently: anything malformed contributes nothing. */
export function fileOperationsFromDetails(details: unknown): FileOperations {
  const d = (details ?? {}) as { readFiles?: unknown; modifiedFiles?: unknown };
  const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return { readFiles: strings(d.readFiles), modifiedFiles: strings(d.modifiedFiles) };
}

/** Union of `previous` and the file paths of the tool calls in `messages`. */
export function collectFileOperations(messages: AgentMessage[], previous?: FileOperations): FileOperations {
  const read = new Set(previous?.readFiles ?? []);
  const modified = new Set(previous?.modifiedFiles ?? []);
  for (const message of messages) {
    if (message.role !== "assistant") continue;
    for (const block of message.content) {
      if (block.type !== "toolCall") continue;
      const path = pathArgument(block.arguments);
      if (!path) continue;
      if (READ_TOOLS.has(block.name)) read.add(path);
      else if (MODIFY_TOOLS.has(block.name)) modified.add(path);
    }
  }
  for (const path of modified) read.delete(path);
  return { readFiles: [...read].sort(), modifiedFiles: [...modified].sort() };
}

function tag(name: string, files: string[]): string {
  const shown = files.slice(0, FILE_LIST_CAP);
  const more = files.length - shown.length;
  const lines = more > 0 ? [...shown, `… (${more} more files omitted)`] : shown;
  return `<${name}>\n${lines.join("\n")}\n</${name}>`;
}

const TAG_RE = /\n*<(read-files|modified-files)>[\s\S]*?<\/\1>/g;

/** `summary` with any earlier file tags replaced by `<read-files>` / `<modified-files>` for `ops`. */
export function appendFileLists(summary: string, ops: FileOperations): string {
  const base = summary.replace(TAG_RE, "").trimEnd();
  const tags: string[] = [];
  if (ops.readFiles.length > 0) tags.push(tag("read-files", ops.readFiles));
  if (ops.modifiedFiles.length > 0) tags.push(tag("modified-files", ops.modifiedFiles));
  return tags.length > 0 ? `${base}\n\n${tags.join("\n\n")}` : base;
}
