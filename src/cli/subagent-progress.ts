// oh-my-pi's AgentProgress of one subagent, kept up to date from its session events (the same
// rules as oh-my-pi 18.3.4's executor: recent tools and output newest first, tokens counted as
// input + output + cacheWrite, requests = assistant messages).
import type { AgentProgress } from "../session/index.js";
import type { AgentSessionEvent, Usage } from "../shared/types.js";

const RECENT_TOOLS = 5;
const RECENT_OUTPUT_LINES = 8;
const RECENT_OUTPUT_TAIL = 8 * 1024;

export type ProgressInit = Pick<AgentProgress, "index" | "id" | "agent" | "agentSource" | "task"> & Partial<Pick<AgentProgress, "assignment" | "description" | "resolvedModel">>;

/** The first string of the usual argument names, cut to 60 characters (oh-my-pi's preview). */
export function toolArgsPreview(args: unknown): string {
  if (!args || typeof args !== "object") return "";
  const a = args as Record<string, unknown>;
  for (const k of ["command", "file_path", "path", "pattern", "query", "url", "task", "prompt"]) {
    const v = a[k];
    if (typeof v === "string" && v) return v.length > 60 ? `${v.slice(0, 59)}…` : v;
  }
  return "";
}

function usageTokens(u: Usage): number {
  const sum = (u.input || 0) + (u.output || 0) + (u.cacheWrite || 0);
  return sum > 0 ? sum : u.totalTokens || 0;
}

export class ProgressTracker {
  readonly progress: AgentProgress;
  private tail = "";
  private readonly started: number;

  constructor(init: ProgressInit, private readonly now: () => number = Date.now) {
    this.started = now();
    this.progress = { ...init, status: "running", recentTools: [], recentOutput: [], toolCount: 0, requests: 0, tokens: 0, cost: 0, durationMs: 0 };
  }

  /** Applies one event; true when the change should be reported at once (else it may be coalesced). */
  apply(ev: AgentSessionEvent): boolean {
    const p = this.progress;
    switch (ev.type) {
      case "message_start":
        if (ev.message.role === "assistant") this.tail = "";
        return false;
      case "message_update":
        if (ev.assistantMessageEvent.type === "text_delta") this.tail = (this.tail + ev.assistantMessageEvent.delta).slice(-RECENT_OUTPUT_TAIL);
        return false;
      case "tool_execution_start":
        p.toolCount++;
        p.currentTool = ev.toolName;
        p.currentToolArgs = toolArgsPreview(ev.args);
        p.currentToolStartMs = this.now();
        if (ev.intent?.trim()) p.lastIntent = ev.intent.trim();
        return true;
      case "tool_execution_end":
        if (p.currentTool) {
          p.recentTools.unshift({ tool: p.currentTool, args: p.currentToolArgs ?? "", endMs: this.now() });
          if (p.recentTools.length > RECENT_TOOLS) p.recentTools.pop();
        }
        delete p.currentTool;
        delete p.currentToolArgs;
        delete p.currentToolStartMs;
        return true;
      case "message_end": {
        if (ev.message.role !== "assistant") return false;
        const u = ev.message.usage;
        p.requests++;
        p.tokens += usageTokens(u);
        p.cost += u.cost?.total ?? 0;
        if (u.totalTokens > 0) p.contextTokens = u.totalTokens;
        this.tail = ev.message.content
          .filter((b) => b.type === "text")
          .map((b) => (b as { text: string }).text)
          .join("")
          .slice(-RECENT_OUTPUT_TAIL);
        return true;
      }
      case "agent_end":
        return true;
      default:
        return false;
    }
  }

  /** The progress as reported now (a copy). */
  snapshot(): AgentProgress {
    const p = this.progress;
    p.durationMs = this.now() - this.started;
    p.recentOutput = this.tail
      .split("\n")
      .filter((l) => l.trim())
      .slice(-RECENT_OUTPUT_LINES)
      .reverse();
    return { ...p, recentTools: p.recentTools.map((t) => ({ ...t })), recentOutput: [...p.recentOutput] };
  }
}
