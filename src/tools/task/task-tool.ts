// The `task` tool: hands focused assignments to subagents, each a full session in
// this process, several at once; returns each answer labelled by its task id.
import type { AgentToolResult, Usage } from "../../shared/types.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateTail } from "../truncate.js";
import type { Tool, ToolContext } from "../types.js";
import type { AgentDefinition, Subagent, SubagentFactory, SubagentProgress, SubagentRunResult } from "./types.js";
import { READ_ONLY_TOOLS } from "./agents.js";

export interface TaskItem {
  id: string;
  description: string;
  assignment: string;
}

export interface TaskArgs {
  agent: string;
  context?: string;
  schema?: unknown;
  tasks: TaskItem[];
}

/** `details.subagents[i]` of the tool result. */
export type SubagentDetails = { id: string; description: string; agent: string; truncated?: boolean } & Omit<SubagentRunResult, "text">;

export function emptyUsage(): Usage {
  return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

export function addUsage(to: Usage, u: Usage): void {
  to.input += u.input;
  to.output += u.output;
  to.cacheRead += u.cacheRead;
  to.cacheWrite += u.cacheWrite;
  to.totalTokens += u.totalTokens;
  if (u.premiumRequests) to.premiumRequests = (to.premiumRequests ?? 0) + u.premiumRequests;
  to.cost.input += u.cost.input;
  to.cost.output += u.cost.output;
  to.cost.cacheRead += u.cost.cacheRead;
  to.cost.cacheWrite += u.cost.cacheWrite;
  to.cost.total += u.cost.total;
}

const MAX_TASKS = 32;

function describe(agents: AgentDefinition[]): string {
  const list = agents.map((a) => `- ${a.name}: ${a.description}${a.tools ? (a.tools.every((t) => READ_ONLY_TOOLS.has(t)) ? " (read-only)" : ` (${a.tools.join(", ")})`) : ""}`).join("\n");
  return (
    "Delegate focused jobs to subagents: tasks run concurrently in fresh contexts; only final answers return. " +
    "A subagent sees only `context` + its assignment. `schema`: JSON Schema each answer must match.\nAgents:\n" +
    list
  );
}

function parameters(agents: AgentDefinition[]): Record<string, unknown> {
  return {
    type: "object",
    properties: {
      agent: { type: "string", enum: agents.map((a) => a.name) },
      context: { type: "string" },
      schema: { type: "object" },
      tasks: {
        type: "array",
        minItems: 1,
        items: {
          type: "object",
          properties: {
            id: { type: "string" },
            description: { type: "string" },
            assignment: { type: "string" },
          },
          required: ["id", "description", "assignment"],
        },
      },
    },
    required: ["agent", "tasks"],
  };
}

/** Checks the arguments; returns the problem or undefined. */
function problem(args: TaskArgs, agents: AgentDefinition[]): string | undefined {
  if (!args || typeof args !== "object") return "Invalid task arguments: expected an object";
  if (typeof args.agent !== "string" || !agents.some((a) => a.name === args.agent)) {
    return `Unknown agent "${String(args.agent)}". Available agents: ${agents.map((a) => a.name).join(", ")}`;
  }
  if (args.context !== undefined && typeof args.context !== "string") return 'Invalid "context": expected a string';
  if (!Array.isArray(args.tasks) || args.tasks.length === 0) return 'Invalid "tasks": expected a non-empty array';
  if (args.tasks.length > MAX_TASKS) return `Too many tasks: ${args.tasks.length} (at most ${MAX_TASKS} per call)`;
  const seen = new Set<string>();
  for (const [i, t] of args.tasks.entries()) {
    if (!t || typeof t !== "object") return `Invalid tasks[${i}]: expected an object`;
    for (const k of ["id", "description", "assignment"] as const) {
      if (typeof t[k] !== "string" || (k !== "description" && !t[k].trim())) return `Invalid tasks[${i}].${k}: expected a non-empty string`;
    }
    if (seen.has(t.id)) return `Duplicate task id "${t.id}"`;
    seen.add(t.id);
  }
  if (args.schema !== undefined && (args.schema === null || typeof args.schema !== "object" || Array.isArray(args.schema))) {
    return 'Invalid "schema": expected a JSON Schema object';
  }
  return undefined;
}

/**
 * At most `max` subagents of one session at once, across all its `task` calls (as the reference's
 * per-session semaphore): two `task` calls in one turn share the budget instead of doubling it.
 */
function limiter(max: number): <T>(fn: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: Array<() => void> = [];
  return async (fn) => {
    if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter, so `active` never over-counts.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** The whole call's answers stay within this many bytes (each gets an equal share, at most ANSWER_MAX_BYTES). */
const RESULT_BUDGET_BYTES = 200 * 1024;
/** One answer's cap: the tools' usual output limits (50 KB, 2000 lines). */
const ANSWER_MAX_BYTES = DEFAULT_MAX_BYTES;
const ANSWER_MAX_LINES = DEFAULT_MAX_LINES;

/** Keeps the end of a runaway answer (as the reference does) and says where the whole answer is. */
export function boundAnswer(body: string, tasks: number, sessionFile: string | undefined): { text: string; truncated: boolean } {
  const maxBytes = Math.min(ANSWER_MAX_BYTES, Math.floor(RESULT_BUDGET_BYTES / Math.max(1, tasks)));
  const t = truncateTail(body, { maxBytes, maxLines: ANSWER_MAX_LINES });
  if (!t.truncated) return { text: body, truncated: false };
  const where = sessionFile ? `the full answer is the last assistant message in ${sessionFile}` : "the full answer was not saved (no session file)";
  const limit = t.truncatedBy === "bytes" ? ` (${formatSize(maxBytes)} limit)` : "";
  return { text: `[Answer truncated: showing the last ${t.outputLines} of ${t.totalLines} lines${limit}; ${where}]\n${t.content}`, truncated: true };
}

function sectionText(t: TaskItem, r: SubagentDetails, answer: string, tasks: number): string {
  const head = `## Task ${t.id}${t.description ? `: ${t.description}` : ""}`;
  const bound = (body: string): string => {
    const b = boundAnswer(body, tasks, r.sessionFile);
    if (b.truncated) r.truncated = true;
    return b.text;
  };
  if (r.status === "error") return `${head}\n[error] ${r.error ?? "the subagent failed"}${answer ? `\n\nPartial answer:\n${bound(answer)}` : ""}`;
  if (r.status === "aborted") return `${head}\n[aborted]${answer ? `\n\nPartial answer:\n${bound(answer)}` : ""}`;
  const body = r.output !== undefined ? JSON.stringify(r.output, null, 2) : answer || "(no answer)";
  return `${head}\n${bound(body)}`;
}

export function createTaskTool(factory: SubagentFactory): Tool<TaskArgs> {
  const agents = factory.agents();
  const slot = limiter(Math.max(1, factory.maxConcurrency));
  return {
    name: "task",
    label: "Task",
    summary: `Delegate focused jobs to subagents (${agents.map((a) => a.name).join(", ")})`,
    description: describe(agents),
    parameters: parameters(agents),
    // every tool call of a subagent passes the permission check on its own (by the parent's mode and rules)
    effect: "delegates",
    validatesOwnArguments: true,
    async execute(args: TaskArgs, ctx: ToolContext): Promise<AgentToolResult> {
      const bad = problem(args, agents);
      if (bad) throw new Error(bad);
      if (factory.depth + 1 > factory.maxRecursionDepth) {
        throw new Error(
          `Subagent nesting limit reached: this session is already at depth ${factory.depth} and task.maxRecursionDepth is ${factory.maxRecursionDepth}. Do the work yourself instead of delegating.`,
        );
      }
      if (ctx.signal.aborted) throw new Error("Aborted");
      const agent = agents.find((a) => a.name === args.agent)!;
      const results: SubagentDetails[] = args.tasks.map((t) => ({ id: t.id, description: t.description, agent: agent.name, status: "aborted", usage: emptyUsage(), turns: 0 }));
      const answers: string[] = args.tasks.map(() => "");
      const progress = new Map<string, SubagentProgress & { state: string }>(args.tasks.map((t) => [t.id, { state: "queued", activity: "queued", turns: 0, tokens: 0 }]));
      const running = new Set<Subagent>();
      const emit = (): void => {
        const lines = args.tasks.map((t) => {
          const p = progress.get(t.id)!;
          return `[${t.id}] ${p.state}: ${p.activity} (turns ${p.turns}, tokens ${p.tokens})`;
        });
        ctx.onUpdate({ content: [{ type: "text", text: lines.join("\n") }], details: { agent: agent.name, progress: args.tasks.map((t) => ({ id: t.id, description: t.description, ...progress.get(t.id)! })) } });
      };
      const onAbort = (): void => {
        for (const s of running) void s.abort().catch(() => undefined);
      };
      ctx.signal.addEventListener("abort", onAbort, { once: true });
      try {
        const runOne = async (t: TaskItem, i: number): Promise<void> => {
          if (ctx.signal.aborted) return;
          const p = progress.get(t.id)!;
          let sub: Subagent | undefined;
          try {
            sub = await factory.create(agent, t.id, { index: i, description: t.description, assignment: t.assignment, parentToolCallId: ctx.toolCallId });
            running.add(sub);
            if (ctx.signal.aborted) {
              await sub.abort();
              return;
            }
            p.state = "running";
            p.activity = "starting";
            emit();
            const assignment = args.context ? `${args.context}\n\n${t.assignment}` : t.assignment;
            const r = await sub.run(assignment, {
              schema: args.schema,
              onProgress: (u) => {
                Object.assign(p, u);
                emit();
              },
            });
            answers[i] = r.text;
            results[i] = { ...results[i]!, status: r.status, usage: r.usage, turns: r.turns };
            const d = results[i]!;
            if (r.error !== undefined) d.error = r.error;
            if (r.output !== undefined) d.output = r.output;
            if (r.sessionFile !== undefined) d.sessionFile = r.sessionFile;
            if (r.model !== undefined) d.model = r.model;
            p.state = r.status;
            p.activity = r.status === "completed" ? "done" : (r.error ?? r.status);
          } catch (err) {
            results[i] = { ...results[i]!, status: "error", error: (err as Error).message ?? String(err) };
            p.state = "error";
            p.activity = results[i]!.error!;
          } finally {
            if (sub) {
              running.delete(sub);
              await sub.close().catch(() => undefined);
            }
            emit();
          }
        };
        await Promise.all(args.tasks.map((t, i) => slot(() => runOne(t, i))));
      } finally {
        ctx.signal.removeEventListener("abort", onAbort);
      }
      const usage = emptyUsage();
      for (const r of results) addUsage(usage, r.usage);
      const text = args.tasks.map((t, i) => sectionText(t, results[i]!, answers[i]!, args.tasks.length)).join("\n\n");
      return { content: [{ type: "text", text }], details: { agent: agent.name, usage, subagents: results } };
    },
  };
}
