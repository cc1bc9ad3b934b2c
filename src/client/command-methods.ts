// One client method per protocol command, grouped as docs/protocol.md groups them. Each sends the
// command and resolves with its response `data`; `implements CommandMethods` makes a command
// added to the protocol without a method here fail the typecheck.
import type { PermissionRulesInput, RpcCommandType, RpcResponseData } from "../protocol/index.js";
import type { ImageContent, ThinkingLevelInput, TodoPhase } from "../shared/types.js";
import { RpcSessionCommands } from "./session-methods.js";
import type { CommandMethods, AnyHostTool } from "./types.js";

type Data<T extends RpcCommandType> = RpcResponseData<T>;
type QueueMode = "all" | "one-at-a-time";

export abstract class RpcCommands extends RpcSessionCommands implements CommandMethods {
  // ── prompting ──────────────────────────────────────────────────

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
  /** Registers host tools of the first session and serves their calls; `[]` removes them all. */
  setHostTools(tools: AnyHostTool[]): Promise<Data<"set_host_tools">> {
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

  // ── liveness (pith) ───────────────────────────────────────────────────────

  /** Heartbeat frames every `intervalMs` (0 = off); see `onHeartbeat`. */
  setHeartbeat(intervalMs: number): Promise<Data<"set_heartbeat">> {
    return this.request("set_heartbeat", { intervalMs });
  }
  /** The model provider's health (does the key work?) and extension status checks. */
  getIntegrations(): Promise<Data<"get_integrations">> {
    return this.request("get_integrations", {});
  }

  // ── file checkpoints (pith extra) ─────────────────────────────────────────

  getCheckpoints(): Promise<Data<"get_checkpoints">> {
    return this.request("get_checkpoints", {});
  }
  /** From a checkpoint to the files now, or to `toCheckpointId`. */
  diffCheckpoint(checkpointId: string, toCheckpointId?: string): Promise<Data<"diff_checkpoint">> {
    return this.request("diff_checkpoint", { checkpointId, toCheckpointId });
  }
  /** `mode` default "files"; `paths` limits a files restore. Fails while a run is active. */
  restoreCheckpoint(checkpointId: string, opts: { mode?: "files" | "conversation" | "both"; paths?: string[] } = {}): Promise<Data<"restore_checkpoint">> {
    return this.request("restore_checkpoint", { checkpointId, mode: opts.mode, paths: opts.paths });
  }

  // ── permissions ───────────────────────────────────────────────────────────

  /** Sets the session's permission mode and rule lists (each key given replaces that value); resolves with the state in force. */
  setPermissions(rules: PermissionRulesInput): Promise<Data<"set_permissions">> {
    return this.request("set_permissions", { rules });
  }

  // ── oh-my-pi 18 and pi 0.87 additions ─────────────────────────────────────

  /** Prefer `start({protocolVersion: 2})`, which also turns on chunk reassembly. */
  negotiateProtocol(protocolVersion: number): Promise<Data<"negotiate_protocol">> {
    return this.request("negotiate_protocol", { protocolVersion });
  }
  /** Only these session event types are written from now on; `null` writes all of them again. */
  setEventFilter(events: string[] | null): Promise<Data<"set_event_filter">> {
    return this.request("set_event_filter", { events });
  }
  getMessagesPage(opts: { cursor?: string; limit?: number } = {}): Promise<Data<"get_messages_page">> {
    return this.request("get_messages_page", { cursor: opts.cursor, limit: opts.limit });
  }
  /** Every message of the context, read page by page (`get_messages_page`), in order. */
  async *iterateMessages(limit?: number): AsyncGenerator<Data<"get_messages_page">["messages"][number]> {
    let cursor: string | undefined;
    do {
      const page = await this.getMessagesPage({ cursor, limit });
      yield* page.messages;
      cursor = page.nextCursor;
    } while (cursor !== undefined);
  }
  getAvailableCommands(): Promise<Data<"get_available_commands">> {
    return this.request("get_available_commands", {});
  }
  getAvailableThinkingLevels(): Promise<Data<"get_available_thinking_levels">> {
    return this.request("get_available_thinking_levels", {});
  }
  clearQueue(): Promise<Data<"clear_queue">> {
    return this.request("clear_queue", {});
  }

  // ── MCP servers (pith extra) ──────────────────────────────────────────────

  /** Replaces the host's MCP servers (`.mcp.json`'s `mcpServers` shape); `{}` removes them. */
  setMcpServers(servers: Record<string, unknown>): Promise<Data<"set_mcp_servers">> {
    return this.request("set_mcp_servers", { servers });
  }
  /** Every MCP server with its source, status, error and the tool names the model sees. */
  getMcpServers(): Promise<Data<"get_mcp_servers">> {
    return this.request("get_mcp_servers", {});
  }

  // ── language servers (pith extra) ─────────────────────────────────────────

  /** Every language server: name, language, command, status, and for a started one its root and pid; why one is not used. */
  getLspServers(): Promise<Data<"get_lsp_servers">> {
    return this.request("get_lsp_servers", {});
  }

  // ── Project trust (pith extra) ────────────────────────────────────────────

  /** Whether the session's folder is trusted, who decided, and what its project layer holds (`found`). */
  getProjectTrust(): Promise<Data<"get_project_trust">> {
    return this.request("get_project_trust", {});
  }
  /**
   * Trusts the session's folder now: its settings, extensions, agents, rules and MCP servers load
   * into the running session; `persist` saves the decision for later starts. Refused while busy.
   */
  trustProject(opts: { persist?: boolean } = {}): Promise<Data<"trust_project">> {
    return this.request("trust_project", opts.persist === undefined ? {} : { persist: opts.persist });
  }
}
