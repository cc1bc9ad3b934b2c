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

/** A non-streamed message entering the context: back-to-back message_start/message_end. */
export function addMessage(state: RunState, message: AgentMessage): void {
  state.input.emit({ type: "message_start", message });
  appendMessage(state, message);
  state.input.emit({ type: "message_end", message });
}
