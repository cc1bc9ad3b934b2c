// A prompt that names a skill (`/skill:name args`) or a prompt template (`/name args`) becomes the
// text the model receives, as in pi: a skill's instructions in a `<skill>` block followed by the
// arguments; a template's text with its argument placeholders filled in.
import { readFileSync } from "node:fs";
import type { LoadedResources, PromptTemplate, SkillInfo } from "./resources.js";

/** Shell-like words: quotes group, whitespace separates. */
export function parseCommandArgs(text: string): string[] {
  const args: string[] = [];
  let current = "";
  let quote: string | null = null;
  for (const ch of text) {
    if (quote) {
      if (ch === quote) quote = null;
      else current += ch;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (/\s/.test(ch)) {
      if (current) args.push(current);
      current = "";
    } else current += ch;
  }
  if (current) args.push(current);
  return args;
}

/** `$1`, `$@`/`$ARGUMENTS`, `${N:-default}`, `${@:-default}`, `${@:N}`, `${@:N:L}`. */
export function substituteArgs(content: string, args: string[]): string {
  const all = args.join(" ");
  return content.replace(/\$\{(\d+|ARGUMENTS|@):-([^}]*)\}|\$\{@:(\d+)(?::(\d+))?\}|\$(ARGUMENTS|@|\d+)/g, (_m, target, fallback, start, length, simple) => {
    if (target) {
      const value = target === "@" || target === "ARGUMENTS" ? all : args[Number(target) - 1];
      return value ? value : fallback;
    }
    if (start) {
      const from = Math.max(0, Number(start) - 1);
      return (length ? args.slice(from, from + Number(length)) : args.slice(from)).join(" ");
    }
    if (simple === "ARGUMENTS" || simple === "@") return all;
    return args[Number(simple) - 1] ?? "";
  });
}

function splitCommand(text: string): { name: string; args: string } | undefined {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
  return m ? { name: m[1], args: m[2] ?? "" } : undefined;
}

/** The text after a leading `---` front matter block (its YAML need not be read to drop it). */
function bodyOf(content: string): string {
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const m = /^---\n[\s\S]*?\n?---[ \t]*(?:\n|$)/.exec(text);
  return m ? text.slice(m[0].length) : text;
}

function expandSkill(skill: SkillInfo, args: string): string {
  const body = bodyOf(readFileSync(skill.filePath, "utf8")).trim();
  const block = `<skill name="${skill.name}" location="${skill.filePath}">\nReferences are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
  return args.trim() ? `${block}\n\n${args.trim()}` : block;
}

function expandTemplate(template: PromptTemplate, args: string): string {
  return substituteArgs(template.content, parseCommandArgs(args));
}

/**
 * The text a prompt stands for: unchanged unless it starts with a known `/skill:name` or template
 * name. Reading a skill file may throw (the caller reports it and keeps the text).
 */
export function expandPromptText(text: string, resources: LoadedResources | undefined): string {
  if (!resources || !text.startsWith("/")) return text;
  const cmd = splitCommand(text);
  if (!cmd) return text;
  if (cmd.name.startsWith("skill:")) {
    const skill = resources.skills.find((s) => s.name === cmd.name.slice("skill:".length));
    return skill ? expandSkill(skill, cmd.args) : text;
  }
  const template = resources.prompts.find((t) => t.name === cmd.name);
  return template ? expandTemplate(template, cmd.args) : text;
}

/** The skills the model may load itself, for the system prompt (pi's `<available_skills>` block). */
export function skillsPromptSection(skills: readonly SkillInfo[]): string {
  const visible = skills.filter((s) => !s.disableModelInvocation);
  if (visible.length === 0) return "";
  const xml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&apos;");
  const lines = [
    "\n\nThe following skills provide specialized instructions for specific tasks.",
    "Use the read tool to load a skill's file when the task matches its description.",
    "When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.",
    "",
    "<available_skills>",
  ];
  for (const s of visible) lines.push("  <skill>", `    <name>${xml(s.name)}</name>`, `    <description>${xml(s.description)}</description>`, `    <location>${xml(s.filePath)}</location>`, "  </skill>");
  lines.push("</available_skills>");
  return lines.join("\n");
}
