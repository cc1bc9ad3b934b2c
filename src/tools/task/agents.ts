// Agent definitions for the `task` tool: the built-ins (`task`, `explore`, `plan`, `reviewer`) and
// Claude Code's Markdown format (front matter name, description, tools, model; body = system prompt)
// from PITH_HOME/agents, then (trusted folders only) <cwd>/.claude/agents and <cwd>/.pith/agents;
// a later folder wins by name, except that a project agent never replaces a built-in one.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { namePatternMatcher } from "../name-patterns.js";
import { Type, type Static } from "typebox";
import { PithError } from "../../shared/errors.js";
import { parseFrontMatter } from "../../shared/front-matter.js";
import { schemaProblem } from "../../shared/schema/explain.js";
import { EFFORTS, type ThinkingLevel } from "../../shared/types.js";
import type { AgentDefinition } from "./types.js";

const READ_ONLY = ["read", "grep", "find", "ls"];
/** Tools that change nothing: an agent limited to these is listed as read-only. */
export const READ_ONLY_TOOLS: ReadonlySet<string> = new Set([...READ_ONLY, "ast_grep"]);

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: "task",
    description: "Every tool (default).",
    systemPrompt:
      "You are a subagent started by another agent through the `task` tool. Do the assignment you are given, using your tools as needed. " +
      "Your final message is your answer: the parent sees only that, so make it complete and concise.",
    source: "builtin",
  },
  {
    name: "explore",
    description: "Investigates code and reports findings.",
    tools: READ_ONLY,
    systemPrompt:
      "You are a read-only exploration subagent. Investigate the codebase to answer the assignment; you cannot change files. " +
      "Your final message is your answer: cite file paths and line numbers.",
    source: "builtin",
  },
  {
    name: "plan",
    description: "Returns a step-by-step implementation plan.",
    tools: READ_ONLY,
    systemPrompt: "You are a planning subagent. Study the relevant code (read-only) and answer with a concrete, ordered implementation plan naming the files to change.",
    source: "builtin",
  },
  {
    name: "reviewer",
    description: "Reviews a change or files; lists problems by severity.",
    tools: READ_ONLY,
    systemPrompt: "You are a code-review subagent. Review what the assignment names (read-only) and answer with concrete findings ordered by severity, each with file and line.",
    source: "builtin",
  },
];

/**
 * Claude Code's tool names as pith's, so a definition from `.claude/agents/` keeps its tools
 * (`tools: Read, Grep, Glob` is read, grep, find). Names of tools pith does not have (WebFetch,
 * WebSearch) stay as written and are left out when the subagent is built.
 */
export const CLAUDE_CODE_TOOLS: Readonly<Record<string, string>> = {
  Read: "read",
  Write: "write",
  Edit: "edit",
  MultiEdit: "edit",
  Bash: "bash",
  Grep: "grep",
  Glob: "find",
  LS: "ls",
  TodoWrite: "todo_write",
  Task: "task",
  NotebookEdit: "notebook",
};

/**
 * Which MCP tools (`mcp__<server>__<tool>`) an agent may use: every one when its definition lists
 * no tools; else those it names, as Claude Code reads them: `mcp__<server>__<tool>`, `mcp__<server>`
 * or `mcp__<server>__*` for all of a server's tools, or any `prefix*`.
 */
export function agentMcpFilter(def: Pick<AgentDefinition, "tools">): ((name: string) => boolean) | undefined {
  if (!def.tools) return undefined;
  const patterns = def.tools.filter((n) => n.startsWith("mcp__")).map((n) => (n.endsWith("*") || n.slice(5).includes("__") ? n : `${n}__*`));
  return namePatternMatcher(patterns);
}

const THINKING_LEVELS: readonly string[] = ["off", ...EFFORTS];

/**
 * The front matter of an agent definition (Claude Code's keys; others, such as `color`, are
 * ignored). `tools` is a YAML list or Claude Code's comma-separated text.
 */
const AgentFrontMatterSchema = Type.Object({
  name: Type.Optional(Type.String({ expected: "text" })),
  description: Type.Optional(Type.String({ expected: "text" })),
  tools: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { expected: "a list of tool names (YAML list or comma-separated text)" })),
  model: Type.Optional(Type.String({ expected: 'text ("provider/id", an id, or "inherit")' })),
  thinkingLevel: Type.Optional(Type.Union([...THINKING_LEVELS, "inherit"].map((l) => Type.Literal(l)))),
});
type AgentFrontMatter = Static<typeof AgentFrontMatterSchema>;

/**
 * An agent definition from its Markdown: YAML front matter (the shared front-matter reader), the
 * body as its system prompt; undefined when the text has no front matter. Throws
 * PithError("config") naming the line for invalid YAML, or the key and what it must be for a
 * value of the wrong kind; an unknown thinking level is only warned about (the parent's is used).
 */
export function parseAgentMarkdown(text: string, source: string, warn?: (message: string) => void): AgentDefinition | undefined {
  const parsed = parseFrontMatter(text);
  if (!parsed) return undefined;
  const fields = checkedFrontMatter(parsed.data, source, warn);
  const name = fields.name?.trim() || path.basename(source).replace(/\.md$/i, "");
  const def: AgentDefinition = { name, description: fields.description?.trim() ?? "", systemPrompt: parsed.body.trim(), source };
  const tools = (typeof fields.tools === "string" ? fields.tools.split(",") : (fields.tools ?? [])).map((s) => s.trim()).filter(Boolean);
  if (tools.length > 0) def.tools = [...new Set(tools.map((n) => (Object.hasOwn(CLAUDE_CODE_TOOLS, n) ? CLAUDE_CODE_TOOLS[n]! : n)))];
  const model = fields.model?.trim();
  if (model && model !== "inherit") def.model = model;
  if (fields.thinkingLevel && fields.thinkingLevel !== "inherit") def.thinkingLevel = fields.thinkingLevel as ThinkingLevel;
  return def;
}

function checkedFrontMatter(data: Record<string, unknown>, source: string, warn?: (message: string) => void): AgentFrontMatter {
  let problem = schemaProblem(AgentFrontMatterSchema, data);
  if (problem?.path === "thinkingLevel") {
    warn?.(`Agent definition ${source}: thinkingLevel "${String(data.thinkingLevel)}" is not one of ${THINKING_LEVELS.join(", ")}; the parent's level is used`);
    const { thinkingLevel: _dropped, ...rest } = data;
    data = rest;
    problem = schemaProblem(AgentFrontMatterSchema, data);
  }
  if (problem) throw new PithError("config", `front-matter key ${problem.path}: expected ${problem.expected ?? "a value"}`);
  return data as AgentFrontMatter;
}

/** The project's agent folders, in load order (a later one wins by name). */
export function projectAgentDirs(cwd: string): string[] {
  return [path.join(cwd, ".claude", "agents"), path.join(cwd, ".pith", "agents")];
}

export interface LoadAgentsOptions {
  pithHome: string;
  cwd: string;
  /** Whether the project's agent folders are read (the folder is trusted). */
  project: boolean;
  warn?: (message: string) => void;
}

const BUILTIN_NAMES: ReadonlySet<string> = new Set(BUILTIN_AGENTS.map((a) => a.name));

/**
 * Built-ins, then each folder's `*.md` files in order; a later definition replaces an earlier one
 * of the same name. A project file cannot take a built-in's name (a repository must not turn the
 * read-only `explore` into an agent that runs commands): the built-in is kept and `warn` says so.
 */
export function loadAgents(o: LoadAgentsOptions): AgentDefinition[] {
  const byName = new Map<string, AgentDefinition>(BUILTIN_AGENTS.map((a) => [a.name, a]));
  const dirs = [
    { dir: path.join(o.pithHome, "agents"), scope: "user" as const },
    ...(o.project ? projectAgentDirs(o.cwd).map((dir) => ({ dir, scope: "project" as const })) : []),
  ];
  for (const { dir, scope } of dirs) {
    for (const file of agentFiles(dir)) {
      let def: AgentDefinition | undefined;
      try {
        def = parseAgentMarkdown(readFileSync(file, "utf8"), file, o.warn);
      } catch (err) {
        o.warn?.(`Cannot read agent definition ${file}: ${(err as Error).message}`);
        continue;
      }
      if (!def) o.warn?.(`Agent definition ${file} has no front matter; ignored`);
      else if (scope === "project" && BUILTIN_NAMES.has(def.name)) {
        o.warn?.(`pith: agent definition ${file} ignored: "${def.name}" is a built-in agent, which a project cannot replace (rename it)`);
      } else byName.set(def.name, { ...def, scope });
    }
  }
  return [...byName.values()];
}

/** The `*.md` files of an agents folder, sorted; none when it cannot be read. */
export function agentFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith(".md"))
      .sort()
      .map((n) => path.join(dir, n));
  } catch (err) {
    // no folder (the usual case) or an unreadable one: no agents from it
    void err;
    return [];
  }
}
