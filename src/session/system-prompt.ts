// The system prompt, in pith's own words: role, tools and guidelines, appended
// text, project context files, date and working directory.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import type { Tool } from "../tools/types.js";
import type { ContextFile } from "./context-files.js";

export interface SystemPromptInput {
  tools: Tool[];
  cwd: string;
  now: Date;
  contextFiles: ContextFile[];
  /** Replaces the base text (role, tools, guidelines). */
  customPrompt?: string;
  appendPrompt?: string[];
}

const ROLE = `You are pith, a coding agent working in the user's project through tools. Read code before changing it, make focused changes in the existing style, and verify your work (build, tests) when you can. Be concise: report what you did and found, not what you are about to do.`;

// Lean on purpose: every request carries this text, so it says what the tool
// definitions do not and nothing twice: the tools are not listed (their definitions are).
function guidelines(names: Set<string>, hashline: boolean): string[] {
  const g: string[] = [];
  if (names.has("edit") && hashline) g.push("edit takes the LINE#ID anchors read shows; read again after a change.");
  if (names.has("grep") || names.has("find")) g.push("Explore with grep and find rather than bash.");
  else if (names.has("bash")) g.push("Use bash (rg, find, ls) to explore the project.");
  if (names.has("bash")) g.push("Use bash for builds, tests and git; commands must not wait for input.");
  if (names.has("todo_write")) g.push("For multi-step tasks keep a todo list with todo_write and update it as you go.");
  return g;
}

function baseText(tools: Tool[]): string {
  const visible = tools.filter((t) => !t.hidden);
  const parts = [ROLE];
  // deferred tools are reached through call_tool: no guideline names them
  const listed = visible.filter((t) => !t.deferred).map((t) => t.name);
  if (!visible.length) parts.push("No tools are available in this session: answer from the conversation alone.");
  const hashline = visible.some((t) => t.name === "edit" && t.description.includes("LINE#ID"));
  parts.push(`Guidelines:\n${guidelines(new Set(listed), hashline).map((l) => `- ${l}`).join("\n")}`);
  return parts.join("\n\n");
}

/** YYYY-MM-DD in local time. */
export function formatDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

export function buildSystemPrompt(input: SystemPromptInput): string {
  const parts = [input.customPrompt?.trim() ? input.customPrompt.trim() : baseText(input.tools)];
  for (const extra of input.appendPrompt ?? []) if (extra.trim()) parts.push(extra.trim());
  if (input.contextFiles.length) {
    const files = input.contextFiles.map((f) => `## ${f.path}\n\n${f.content.trim()}`).join("\n\n");
    parts.push(`# Project Context\n\nInstructions from the project and the user. Follow them.\n\n${files}`);
  }
  parts.push(`Current date: ${formatDate(input.now)}\nCurrent working directory: ${input.cwd}`);
  return parts.join("\n\n");
}

/**
 * A `--system-prompt` / `--append-system-prompt` value: text with a newline is literal;
 * otherwise, if it names an existing file (relative to cwd), the file's content; else literal.
 */
export function resolvePromptArg(value: string, cwd: string): string {
  if (value.includes("\n") || !value.trim()) return value;
  const path = isAbsolute(value) ? value : resolve(cwd, value);
  try {
    if (statSync(path).isFile()) return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT" && code !== "ENOTDIR" && code !== "ENAMETOOLONG") throw err;
  }
  return value;
}
