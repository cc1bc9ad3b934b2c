// What one run carries around: its input, its config and the messages it added so far.
import type { AgentMessage } from "../shared/types.js";
import type { AgentLoopConfig, AgentRunInput } from "./types.js";

export interface RunState {
  input: AgentRunInput;
  config: AgentLoopConfig;
  /** Messages added during this run, in order: becomes `agent_end.messages`. */
  added: AgentMessage[];
  /** Working directory handed to tools (`ToolContext.cwd`). */
  cwd: string;
}

/** Appends a message to the context and to the run's additions. No events. */
export function appendMessage(state: RunState, message: AgentMessage): void {
  state.input.messages.push(message);
  state.added.push(message);
}

/** A value now, or a promise of it when a hook has to be waited for (no extra tick otherwise). */
export type Later<T> = T | Promise<T>;

/** A non-streamed message entering the context: back-to-back message_start/message_end. */
export function addMessage(state: RunState, message: AgentMessage): Later<void> {
  state.input.emit({ type: "message_start", message });
  appendMessage(state, message);
  return endMessage(state, message);
}

/** Adds `messages` in order. */
export function addMessages(state: RunState, messages: readonly AgentMessage[]): Later<void> {
  for (let i = 0; i < messages.length; i++) {
    const pending = addMessage(state, messages[i]);
    if (pending) return pending.then(() => addMessages(state, messages.slice(i + 1)));
  }
}

/** `message_end` of a message in the context, once `config.beforeMessageEnd` (when set) had its say. */
export function endMessage(state: RunState, message: AgentMessage): Later<void> {
  const hook = state.config.beforeMessageEnd;
  if (!hook) return state.input.emit({ type: "message_end", message });
  return hook(message).then(() => state.input.emit({ type: "message_end", message }));
}
