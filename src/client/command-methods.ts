// One client method per protocol command, grouped as protocol.md §3 groups them. Each sends the
// command and resolves with its response `data`; `implements CommandMethods` makes a command
// added to the protocol without a method here fail the typecheck.
import type { RpcCommandType, RpcHostToolDefinition, RpcResponseData } from "../protocol/index.js";
import type { ImageContent, ThinkingLevelInput, TodoPhase } from "../shared/types.js";
import { RpcSessionCommands } from "./session-methods.js";
import type { CommandMethods, HostTool } from "./types.js";

type Data<T extends RpcCommandType> = RpcResponseData<T>;
type QueueMode = "all" | "one-at-a-time";

export abstract class RpcCommands extends RpcSessionCommands implements CommandMethods {
  /** Keeps the executors of `tools` for their calls; returns the wire definitions to send. */
  protected abstract registerHostTools(tools: HostTool<any>[]): RpcHostToolDefinition[];

  // ── prompting (§3.1–3.5) ──────────────────────────────────────────────────

  prompt(message: string, opts: { images?: ImageContent[]; streamingBehavior?: "steer" | "followUp" } = {}): Promise<Data<"prompt">> {
    return this.request("prompt", { message, images: opts.images, streamingBehavior: opts.streamingBehavior });
  }
  steer(message: string, images?: ImageContent[]): Promise<Data<"steer">> {
    return this.request("steer", { message, images });
  }
  followUp(message: string, images?: ImageContent[]): Promise<Data<"follow_up">> {
    return this.request("follow_up", { message, images });
  }
  abort(): Promise<Data<"abort">> {
    return this.request("abort", {});
  }
  abortAndPrompt(message: string, images?: ImageContent[]): Promise<Data<"abort_and_prompt">> {
    return this.request("abort_and_prompt", { message, images });
  }

  // ── session state ─────────────────────────────────────────────────────────

  newSession(parentSession?: string): Promise<Data<"new_session">> {
    return this.request("new_session", { parentSession });
  }
  getState(): Promise<Data<"get_state">> {
    return this.request("get_state", {});
  }
  setTodos(phases: TodoPhase[]): Promise<Data<"set_todos">> {
    return this.request("set_todos", { phases });
  }
  /** Registers host tools and serves their calls; `[]` removes them all. */
  setHostTools(tools: HostTool<any>[]): Promise<Data<"set_host_tools">> {
    return this.request("set_host_tools", { tools: this.registerHostTools(tools) });
  }

  // ── models and thinking ───────────────────────────────────────────────────

  setModel(provider: string, modelId: string): Promise<Data<"set_model">> {
    return this.request("set_model", { provider, modelId });
  }
  cycleModel(): Promise<Data<"cycle_model">> {
    return this.request("cycle_model", {});
  }
  getAvailableModels(): Promise<Data<"get_available_models">> {
    return this.request("get_available_models", {});
  }
  setThinkingLevel(level: ThinkingLevelInput): Promise<Data<"set_thinking_level">> {
    return this.request("set_thinking_level", { level });
  }
  cycleThinkingLevel(): Promise<Data<"cycle_thinking_level">> {
    return this.request("cycle_thinking_level", {});
  }

  // ── queue and interrupt modes ─────────────────────────────────────────────

  setSteeringMode(mode: QueueMode): Promise<Data<"set_steering_mode">> {
    return this.request("set_steering_mode", { mode });
  }
  setFollowUpMode(mode: QueueMode): Promise<Data<"set_follow_up_mode">> {
    return this.request("set_follow_up_mode", { mode });
  }
  setInterruptMode(mode: "immediate" | "wait"): Promise<Data<"set_interrupt_mode">> {
    return this.request("set_interrupt_mode", { mode });
  }

  // ── compaction and retry ──────────────────────────────────────────────────

  compact(customInstructions?: string): Promise<Data<"compact">> {
    return this.request("compact", { customInstructions });
  }
  setAutoCompaction(enabled: boolean): Promise<Data<"set_auto_compaction">> {
    return this.request("set_auto_compaction", { enabled });
  }
  setAutoRetry(enabled: boolean): Promise<Data<"set_auto_retry">> {
    return this.request("set_auto_retry", { enabled });
  }
  abortRetry(): Promise<Data<"abort_retry">> {
    return this.request("abort_retry", {});
  }

  // ── bash ──────────────────────────────────────────────────────────────────

  bash(command: string): Promise<Data<"bash">> {
    return this.request("bash", { command });
  }
  abortBash(): Promise<Data<"abort_bash">> {
    return this.request("abort_bash", {});
  }

  // ── session files ─────────────────────────────────────────────────────────

  getSessionStats(): Promise<Data<"get_session_stats">> {
    return this.request("get_session_stats", {});
  }
  exportHtml(outputPath?: string): Promise<Data<"export_html">> {
    return this.request("export_html", { outputPath });
  }
  switchSession(sessionPath: string): Promise<Data<"switch_session">> {
    return this.request("switch_session", { sessionPath });
  }
  /** Older pi name of switchSession. */
  resumeSession(sessionFile: string): Promise<Data<"resume_session">> {
    return this.request("resume_session", { sessionFile });
  }
  branch(entryId: string): Promise<Data<"branch">> {
    return this.request("branch", { entryId });
  }
  getBranchMessages(): Promise<Data<"get_branch_messages">> {
    return this.request("get_branch_messages", {});
  }
  getLastAssistantText(): Promise<Data<"get_last_assistant_text">> {
    return this.request("get_last_assistant_text", {});
  }
  setSessionName(name: string): Promise<Data<"set_session_name">> {
    return this.request("set_session_name", { name });
  }
  getMessages(): Promise<Data<"get_messages">> {
    return this.request("get_messages", {});
  }
  fork(entryId: string): Promise<Data<"fork">> {
    return this.request("fork", { entryId });
  }
  getForkMessages(): Promise<Data<"get_fork_messages">> {
    return this.request("get_fork_messages", {});
  }
  clone(): Promise<Data<"clone">> {
    return this.request("clone", {});
  }
  getCommands(): Promise<Data<"get_commands">> {
    return this.request("get_commands", {});
  }
  setDeltaStreaming(enabled: boolean): Promise<Data<"set_delta_streaming">> {
    return this.request("set_delta_streaming", { enabled });
  }
}
