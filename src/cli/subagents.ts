// The composition root's side of the `task` tool: a SubagentFactory per session that builds each
// subagent as a full AgentSession in this process, its session file linked to the parent's.
import { sessionWiring, type AgentSession, type SessionLog, type SessionStorage, type SubagentLifecycle, type SubagentProgressPayload } from "../session/index.js";
import type { AgentMessage, AgentSessionEvent, Model, ThinkingLevel, Usage } from "../shared/types.js";
import { addUsage, emptyUsage, type AgentDefinition, type Subagent, type SubagentFactory, type SubagentRunResult } from "../tools/index.js";
import { ProgressTracker, type ProgressInit } from "./subagent-progress.js";

export interface SubagentContext {
  depth: number;
  maxConcurrency: number;
  maxRecursionDepth: number;
  agents: () => AgentDefinition[];
  storage: SessionStorage;
  sessionDir: string | undefined;
  cwd: string;
  /** The parent session (set once it is built). */
  parent: () => AgentSession;
  resolveModel: (selector: string) => Model | undefined;
  /** Builds a session one level deeper, running `agent`. */
  build: (o: { file: SessionLog; model: Model | undefined; thinkingLevel: ThinkingLevel | undefined; depth: number; agent: AgentDefinition }) => Promise<AgentSession>;
}

export function createSubagentFactory(c: SubagentContext): SubagentFactory {
  return {
    depth: c.depth,
    maxConcurrency: c.maxConcurrency,
    maxRecursionDepth: c.maxRecursionDepth,
    agents: c.agents,
    async create(agent, label, meta) {
      const parent = c.parent();
      let model = parent.model;
      if (agent.model) {
        model = c.resolveModel(agent.model);
        if (!model) throw new Error(`Agent "${agent.name}" names model "${agent.model}", which is not known`);
      }
      const file = c.storage.create({ dir: c.sessionDir, cwd: c.cwd, parentSession: parent.sessionFile });
      let session: AgentSession;
      try {
        // the agent's own thinking level, else the parent's current one (as the model)
        session = await c.build({ file, model, thinkingLevel: agent.thinkingLevel ?? sessionWiring(parent).models.thinkingLevel, depth: c.depth + 1, agent });
      } catch (err) {
        file.close();
        throw err;
      }
      // The subagent judges by the parent's permission mode and rules (live), and its approval
      // dialogs reach the host through the parent's, naming the subagent.
      sessionWiring(session).permissions.follow(sessionWiring(parent).permissions);
      sessionWiring(session).permissions.setAsker({
        ask: (request, signal) => {
          const dialogs = sessionWiring(parent).permissions.dialogs;
          return dialogs ? dialogs.ask({ ...request, title: `[subagent ${label} (${agent.name})] ${request.title}` }, signal) : Promise.resolve("no-ui");
        },
      });
      const agentSource = agent.scope ?? (agent.source === "builtin" ? "bundled" : "project");
      const lifecycle = (status: SubagentLifecycle["status"], started?: { task: string; assignment: string }): void => {
        const payload: SubagentLifecycle = { id: label, agent: agent.name, agentSource, description: meta.description, status, index: meta.index, parentToolCallId: meta.parentToolCallId };
        const f = session.sessionFile;
        if (f !== undefined) payload.sessionFile = f;
        sessionWiring(parent).subagents.report(payload, started);
      };
      const reporter: Reporter = {
        started: (task) => lifecycle("started", { task, assignment: meta.assignment }),
        tracker: (task) => {
          const init: ProgressInit = { index: meta.index, id: label, agent: agent.name, agentSource, task, assignment: meta.assignment, description: meta.description };
          const m = session.model;
          if (m) init.resolvedModel = `${m.provider}/${m.id}`;
          return new ProgressTracker(init);
        },
        progress: (tracker) => {
          const payload: SubagentProgressPayload = { index: meta.index, agent: agent.name, agentSource, task: tracker.progress.task, parentToolCallId: meta.parentToolCallId, progress: tracker.snapshot() };
          if (meta.assignment !== undefined) payload.assignment = meta.assignment;
          const f = session.sessionFile;
          if (f !== undefined) payload.sessionFile = f;
          sessionWiring(parent).subagents.progress(payload);
        },
        event: (ev) => sessionWiring(parent).subagents.event(label, ev),
        ended: (status) => lifecycle(status === "completed" ? "completed" : status === "aborted" ? "aborted" : "failed"),
      };
      return wrap(session, file, reporter);
    },
  };
}

/** What a running subagent tells its parent's SubagentRegistry (oh-my-pi's frames). */
interface Reporter {
  started(task: string): void;
  tracker(task: string): ProgressTracker;
  progress(tracker: ProgressTracker): void;
  event(ev: AgentSessionEvent): void;
  ended(status: SubagentRunResult["status"]): void;
}

/** oh-my-pi coalesces streaming progress to one frame per 150 ms; tool and message ends go out at once. */
const PROGRESS_COALESCE_MS = 150;

function textOf(m: AgentMessage | undefined): string {
  if (!m || m.role !== "assistant") return "";
  return m.content
    .filter((b) => b.type === "text")
    .map((b) => (b as { text: string }).text)
    .join("")
    .trim();
}

function wrap(session: AgentSession, file: SessionLog, rep: Reporter): Subagent {
  return {
    async run(assignment, o): Promise<SubagentRunResult> {
      let turns = 0;
      let tokens = 0;
      const usage: Usage = emptyUsage();
      const tracker = rep.tracker(assignment);
      let timer: NodeJS.Timeout | undefined;
      let lastEmit = 0;
      const flush = (): void => {
        if (timer) clearTimeout(timer);
        timer = undefined;
        lastEmit = Date.now();
        rep.progress(tracker);
      };
      rep.started(assignment);
      flush();
      const off = session.subscribe((ev) => {
        rep.event(ev);
        if (tracker.apply(ev) || Date.now() - lastEmit >= PROGRESS_COALESCE_MS) flush();
        else timer ??= setTimeout(flush, PROGRESS_COALESCE_MS - (Date.now() - lastEmit));
        if (ev.type === "turn_start") {
          turns++;
          o.onProgress({ activity: "thinking", turns, tokens });
        } else if (ev.type === "tool_execution_start") {
          o.onProgress({ activity: `${ev.toolName}${brief(ev.args)}`, turns, tokens });
        } else if (ev.type === "message_end" && ev.message.role === "assistant") {
          addUsage(usage, ev.message.usage);
          tokens = usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
          o.onProgress({ activity: ev.message.stopReason === "toolUse" ? "running tools" : "answered", turns, tokens });
        } else if (ev.type === "message_end" && ev.message.role === "toolResult" && ev.message.toolName === "task") {
          // A nested subagent's usage counts in this subagent's, so the top parent's stats see every level.
          const nested = usageOf(ev.message.details);
          if (nested) addUsage(usage, nested);
        }
      });
      const base = (): Omit<SubagentRunResult, "status" | "text"> => {
        const r: Omit<SubagentRunResult, "status" | "text"> = { usage, turns };
        const f = session.sessionFile;
        if (f !== undefined) r.sessionFile = f;
        const m = session.model;
        if (m) r.model = `${m.provider}/${m.id}`;
        return r;
      };
      let status: SubagentRunResult["status"] = "error";
      try {
        const output = o.schema !== undefined ? await session.compileOutputSchema(o.schema) : undefined;
        const state = session.getState();
        file.append({
          type: "session_init",
          systemPrompt: state.systemPrompt,
          task: assignment,
          tools: (state.dumpTools ?? []).map((t) => t.name),
          ...(o.schema !== undefined ? { outputSchema: o.schema } : {}),
        });
        const handle = session.prompt(assignment, output ? { output } : {});
        await handle.accepted;
        const outcome = await handle.outcome;
        await handle.done.catch(() => undefined);
        const msgs = sessionWiring(session).history.messages;
        const last = [...msgs].reverse().find((m) => m.role === "assistant");
        const text = textOf(last);
        const r: SubagentRunResult = { ...base(), status: outcome.status, text };
        if (outcome.error) r.error = outcome.error.message;
        else if (outcome.status === "error") r.error = last?.role === "assistant" && last.errorMessage ? last.errorMessage : "the subagent's run failed";
        if (outcome.output !== undefined) r.output = outcome.output;
        status = r.status;
        return r;
      } catch (err) {
        return { ...base(), status: "error", text: "", error: (err as Error).message ?? String(err) };
      } finally {
        off();
        tracker.progress.status = status === "error" ? "failed" : status;
        flush();
        rep.ended(status);
      }
    },
    abort: () => session.abort(),
    close: () => session.close(),
  };
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** A `task` result's `details.usage`, completed with zeros; undefined when absent. */
function usageOf(details: unknown): Usage | undefined {
  const u = details && typeof details === "object" ? (details as { usage?: unknown }).usage : undefined;
  if (!u || typeof u !== "object") return undefined;
  const r = u as Record<string, unknown>;
  const c = (r.cost && typeof r.cost === "object" ? r.cost : {}) as Record<string, unknown>;
  return {
    input: num(r.input),
    output: num(r.output),
    cacheRead: num(r.cacheRead),
    cacheWrite: num(r.cacheWrite),
    totalTokens: num(r.totalTokens),
    cost: { input: num(c.input), output: num(c.output), cacheRead: num(c.cacheRead), cacheWrite: num(c.cacheWrite), total: num(c.total) },
  };
}

function brief(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  const v = a.command ?? a.path ?? a.pattern ?? a.file_path;
  if (typeof v !== "string") return "";
  const one = v.split("\n")[0]!;
  return `: ${one.length > 60 ? `${one.slice(0, 57)}...` : one}`;
}
