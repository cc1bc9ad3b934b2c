// oh-my-pi's subagent view of a session: the `task` tool's subagents report their
// lifecycle, progress and session events here. `get_subagents` lists the running ones (as
// oh-my-pi 18.3.4: a subagent leaves the list when it ends); `get_subagent_messages` finds a
// subagent's session file by id, also after it ended. Frames by subscription level: `progress`
// writes subagent_lifecycle and subagent_progress, `events` also subagent_event, `off` nothing.
import type { AgentSessionEvent } from "../shared/types.js";
import { PithError } from "../shared/errors.js";

type Payload<T extends AgentSessionEvent["type"]> = Extract<AgentSessionEvent, { type: T; payload: unknown }>["payload"];
export type SubagentLifecycle = Payload<"subagent_lifecycle">;
export type SubagentProgressPayload = Payload<"subagent_progress">;
export type AgentProgress = SubagentProgressPayload["progress"];
export type SubagentSubscriptionLevel = "off" | "progress" | "events";

export interface SubagentSnapshot {
  id: string;
  index: number;
  agent: string;
  agentSource: SubagentLifecycle["agentSource"];
  description?: string;
  status: AgentProgress["status"];
  task?: string;
  assignment?: string;
  sessionFile?: string;
  lastUpdate: number;
  progress?: AgentProgress;
  parentToolCallId?: string;
}

/** How many ended subagents' session files `get_subagent_messages` still finds by id (oh-my-pi keeps 256). */
const MAX_REMEMBERED = 256;

const keyOf = (id: string, parentToolCallId: string | undefined): string => `${parentToolCallId ?? ""}\u0000${id}`;

export class SubagentRegistry {
  private level: SubagentSubscriptionLevel = "off";
  // Keyed by the task call and the task id: ids are the model's labels, unique only within a call.
  private readonly running = new Map<string, SubagentSnapshot>();
  /** Subagent id → its latest session file (insertion order = age, for pruning). */
  private readonly files = new Map<string, string>();

  constructor(private readonly emit: (event: AgentSessionEvent) => void) {}

  get subscription(): SubagentSubscriptionLevel {
    return this.level;
  }

  setSubscription(level: SubagentSubscriptionLevel): void {
    this.level = level;
  }

  /** A subagent started or ended. */
  report(payload: SubagentLifecycle, started?: { task: string; assignment: string }): void {
    const key = keyOf(payload.id, payload.parentToolCallId);
    // As oh-my-pi: the end of a subagent this registry never saw start (or forgot) is not reported.
    if (payload.status !== "started" && !this.running.has(key)) return;
    this.remember(payload.id, payload.sessionFile);
    if (payload.status === "started") {
      const snap: SubagentSnapshot = { ...payload, status: "running", lastUpdate: Date.now() };
      if (started) Object.assign(snap, started);
      this.running.set(key, snap);
    } else {
      this.running.delete(key);
    }
    if (this.level !== "off") this.emit({ type: "subagent_lifecycle", payload });
  }

  /** A running subagent's progress; ignored once it ended. */
  progress(payload: SubagentProgressPayload): void {
    const snap = this.running.get(keyOf(payload.progress.id, payload.parentToolCallId));
    if (!snap) return;
    this.remember(payload.progress.id, payload.sessionFile);
    Object.assign(snap, { status: payload.progress.status, task: payload.task, lastUpdate: Date.now(), progress: payload.progress });
    if (payload.progress.description !== undefined) snap.description = payload.progress.description;
    if (payload.assignment !== undefined) snap.assignment = payload.assignment;
    if (this.level !== "off") this.emit({ type: "subagent_progress", payload });
  }

  /** One event of a subagent's own session. */
  event(id: string, event: AgentSessionEvent): void {
    if (this.level === "events") this.emit({ type: "subagent_event", payload: { id, event } });
  }

  /** The subagents running now, by index then id (as oh-my-pi). */
  list(): SubagentSnapshot[] {
    return [...this.running.values()].sort((a, b) => a.index - b.index || a.id.localeCompare(b.id)).map((s) => ({ ...s }));
  }

  /** `get_subagent_messages`' selector → a session file this session's subagents wrote. */
  resolveSessionFile(sel: { subagentId?: string; sessionFile?: string }): string {
    if (sel.subagentId !== undefined && sel.subagentId !== "") {
      const running = [...this.running.values()].filter((s) => s.id === sel.subagentId && s.sessionFile !== undefined).pop();
      const file = running?.sessionFile ?? this.files.get(sel.subagentId);
      if (!file) throw new PithError("not_found", `Unknown subagent or session file unavailable: ${sel.subagentId}`);
      return file;
    }
    if (sel.sessionFile !== undefined && sel.sessionFile !== "") {
      const known = [...this.files.values()].includes(sel.sessionFile) || [...this.running.values()].some((s) => s.sessionFile === sel.sessionFile);
      if (known) return sel.sessionFile;
      throw new PithError("not_found", "Unknown subagent session file");
    }
    throw new PithError("invalid_request", "get_subagent_messages requires subagentId or sessionFile");
  }

  /** Another session file was loaded: its subagents and their transcripts are no longer this session's. */
  clear(): void {
    this.running.clear();
    this.files.clear();
  }

  private remember(id: string, file: string | undefined): void {
    if (!file) return;
    this.files.delete(id);
    this.files.set(id, file);
    while (this.files.size > MAX_REMEMBERED) this.files.delete(this.files.keys().next().value!);
  }
}
