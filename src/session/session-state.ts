// The `get_state` view of a session (spec/protocol.md §3.8), plus pith's extras.
import type { Model, ThinkingLevel, TodoPhase } from "../shared/types.js";
import type { AgentSession } from "./agent-session.js";

export interface SessionState {
  model?: Model;
  thinkingLevel?: ThinkingLevel;
  isStreaming: boolean;
  isCompacting: boolean;
  steeringMode: "all" | "one-at-a-time";
  followUpMode: "all" | "one-at-a-time";
  interruptMode: "immediate" | "wait";
  sessionFile?: string;
  sessionId: string;
  sessionName?: string;
  autoCompactionEnabled: boolean;
  autoRetryEnabled: boolean;
  messageCount: number;
  queuedMessageCount: number;
  /** pi's name for `queuedMessageCount`. */
  pendingMessageCount: number;
  todoPhases: TodoPhase[];
  systemPrompt: string;
  dumpTools: Array<{ name: string; description: string; parameters: unknown }>;
}

export function buildSessionState(session: AgentSession): SessionState {
  const rt = session.rt;
  const queued = session.queues.count;
  return {
    model: rt.model,
    thinkingLevel: rt.thinkingLevel,
    isStreaming: session.isStreaming,
    isCompacting: rt.compactor.isCompacting,
    steeringMode: session.settings.steeringMode,
    followUpMode: session.settings.followUpMode,
    interruptMode: session.settings.interruptMode,
    sessionFile: rt.store.path,
    sessionId: rt.store.sessionId,
    sessionName: rt.store.name,
    autoCompactionEnabled: session.autoCompactionEnabled,
    autoRetryEnabled: session.settings.retry.enabled,
    messageCount: rt.messages.length,
    queuedMessageCount: queued,
    pendingMessageCount: queued,
    todoPhases: rt.todos.get(),
    systemPrompt: rt.systemPrompt,
    dumpTools: session.activeTools().map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
  };
}
