// The agent loop is a function with callbacks: it owns no I/O, no queues and no persistence.
import type { LlmContext, StreamFn, StreamOptions } from "../providers/types.js";
import type { Tool } from "../tools/types.js";
import type { AgentEvent, AgentMessage, LlmMessage, Model, ToolCall } from "../shared/types.js";

export type InterruptMode = "immediate" | "wait";

export type { ToolOutcome as ToolCallOutcome } from "../tools/types.js";
import type { ToolOutcome as ToolCallOutcome } from "../tools/types.js";

export interface AgentLoopConfig {
  stream: StreamFn;
  /** The working directory tools run in. */
  getCwd(): string;
  /** Read before every model call: model, tools and system prompt may change mid-run. */
  getModel(): Model;
  getSystemPrompt(): string;
  /** The active tools offered to the model (and executable) for the next call. */
  getTools(): Tool[];
  getStreamOptions(): Omit<StreamOptions, "signal">;
  /** AgentMessage[] → what the provider sees. */
  convertToLlm(messages: AgentMessage[]): LlmMessage[];
  /** Optional rewrite of the context before each call (extension `context` event). */
  transformContext?(messages: AgentMessage[], signal: AbortSignal): Promise<AgentMessage[]>;
  /** Optional last look at the request (tests, extensions). */
  onRequest?(context: LlmContext): void;
  /** Polled at run start, after each tool call ("immediate" mode) and after every turn. */
  pollSteering(): AgentMessage[];
  /** Polled only when the run would otherwise stop. */
  pollFollowUps(): AgentMessage[];
  getInterruptMode(): InterruptMode;
  /** Optional interception of a tool call (extensions' `tool_call` / `tool_result`). */
  wrapToolExecution?(call: ToolCall, tool: Tool, run: () => Promise<ToolCallOutcome>): Promise<ToolCallOutcome>;
  /** After a tool batch: true ends the run without another model request (a structured result was submitted). */
  shouldEndAfterTools?(): boolean;
  /**
   * Awaited before each message's `message_end` (after it entered the context): may change the
   * message in place (extensions' `message_end` replacement). Absent: nothing waits.
   */
  beforeMessageEnd?(message: AgentMessage): Promise<void>;
  /** Hook for the TTSR interceptor: return true to abort the stream. */
  onAssistantUpdate?(message: AgentEvent & { type: "message_update" }): boolean | void;
}

export interface AgentRunInput {
  /** The context before this run; the loop appends to it in place. */
  messages: AgentMessage[];
  /** Prompt messages of this run (empty for a `continue`). */
  prompts: AgentMessage[];
  signal: AbortSignal;
  emit(event: AgentEvent): void;
}

/** Resolves with the messages added during the run (the `agent_end.messages`). Never rejects. */
export type RunAgentLoop = (input: AgentRunInput, config: AgentLoopConfig) => Promise<AgentMessage[]>;
