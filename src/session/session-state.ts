// The `get_state` view of a session (spec/protocol.md §3.8), plus pith's extras.
import type { Model, ThinkingLevel, TodoPhase } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import type { Conversation } from "./conversation.js";
import type { SessionSettings } from "./settings.js";

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

/** What the `get_state` view is read from. */
export interface SessionStateSource {
  conversation: Conversation;
  settings: SessionSettings;
  isStreaming: boolean;
  isCompacting: boolean;
  autoCompactionEnabled: boolean;
  queuedMessageCount: number;
  systemPrompt: string;
  tools: Tool[];
}

export function buildSessionState(s: SessionStateSource): SessionState {
  const { conversation: c, settings } = s;
  return {
    model: c.model,
    thinkingLevel: c.thinkingLevel,
    isStreaming: s.isStreaming,
    isCompacting: s.isCompacting,
    steeringMode: settings.steeringMode,
    followUpMode: settings.followUpMode,
    interruptMode: settings.interruptMode,
    sessionFile: c.log.path,
    sessionId: c.log.sessionId,
    sessionName: c.log.name,
    autoCompactionEnabled: s.autoCompactionEnabled,
    autoRetryEnabled: settings.retry.enabled,
    messageCount: c.messages.length,
    queuedMessageCount: s.queuedMessageCount,
    pendingMessageCount: s.queuedMessageCount,
    todoPhases: c.todos.get(),
    systemPrompt: s.systemPrompt,
    dumpTools: s.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
  };
}
