// oh-my-pi's subagent view of a session (issue 23): the `task` tool's subagents report their
// lifecycle here; `get_subagents` lists the running ones and, after `set_subagent_subscription`
// `progress` or `events`, each change is written as a `subagent_lifecycle` event.
import type { AgentSessionEvent } from "../shared/types.js";

export type SubagentLifecycle = Extract<AgentSessionEvent, { type: "subagent_lifecycle" }>["payload"];
export type SubagentSubscriptionLevel = "off" | "progress" | "events";

export interface SubagentSnapshot {
  id: string;
  index: number;
  agent: string;
  agentSource: string;
  description?: string;
  status: "running" | "completed" | "failed" | "aborted";
  assignment?: string;
  sessionFile?: string;
  lastUpdate: number;
  parentToolCallId?: string;
}

export class SubagentRegistry {
  private level: SubagentSubscriptionLevel = "off";
  private readonly running = new Map<string, SubagentSnapshot>();

  constructor(private readonly emit: (event: AgentSessionEvent) => void) {}

  get subscription(): SubagentSubscriptionLevel {
    return this.level;
  }

  setSubscription(level: SubagentSubscriptionLevel): void {
    this.level = level;
  }

  /** A subagent started or ended; `assignment` is kept for `get_subagents`. */
  report(payload: SubagentLifecycle, assignment?: string): void {
    const key = `${payload.parentToolCallId ?? ""}\u0000${payload.id}`;
    if (payload.status === "started") {
      const snap: SubagentSnapshot = { ...payload, status: "running", lastUpdate: Date.now() };
      if (assignment !== undefined) snap.assignment = assignment;
      this.running.set(key, snap);
    } else {
      this.running.delete(key);
    }
    if (this.level !== "off") this.emit({ type: "subagent_lifecycle", payload });
  }

  /** The subagents running now, in start order. */
  list(): SubagentSnapshot[] {
    return [...this.running.values()].map((s) => ({ ...s }));
  }
}
