// The typed host client: one method per protocol command (checked against COMMAND_TYPES at
// the type level via `implements CommandMethods`), idle detection that survives retries and
// automatic continuations, host tools and extension dialogs answered automatically.
import type { RpcCommandType, RpcResponseData } from "../protocol/index.js";
import type { AgentMessage, ImageContent, ThinkingLevelInput, TodoPhase } from "../shared/types.js";
import { RpcConnection } from "./connection.js";
import { RpcClientError } from "./errors.js";
import { HostToolRunner } from "./host-tool-runner.js";
import type {
  CommandMethods,
  HostTool,
  PromptAndWaitOptions,
  RpcClientOptions,
  UiAnswer,
  UiRequestHandler,
} from "./types.js";
import { UiResponder } from "./ui-responder.js";

type Data<T extends RpcCommandType> = RpcResponseData<T>;
type QueueMode = "all" | "one-at-a-time";

/** Frames after which idle may have been reached. */
const WAKE_TYPES: ReadonlySet<string> = new Set(["agent_start", "agent_end", "auto_retry_end", "auto_compaction_end"]);

export class RpcClient extends RpcConnection implements CommandMethods {
  private readonly hostTools = new HostToolRunner((f) => this.send(f), (e) => this.reportError(e));
  private readonly ui = new UiResponder((f) => this.send(f), (e) => this.reportError(e));
  private agentRunning = false;

  constructor(options: RpcClientOptions = {}) {
    super(options);
  }

  /** Spawns the agent, waits for `ready`, and returns the connected client. */
  static async start(options: RpcClientOptions = {}): Promise<RpcClient> {
    return new RpcClient(options).start();
  }

  /** True between an `agent_start` and its `agent_end`, as far as the event stream shows. */
  get inRun(): boolean {
    return this.agentRunning;
  }

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
    return this.request("set_host_tools", { tools: this.hostTools.register(tools) });
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

  // ── helpers ───────────────────────────────────────────────────────────────

  /** Installs (or removes) the handler that answers select/confirm/input/editor dialogs. */
  onUiRequest(handler: UiRequestHandler | undefined): void {
    this.ui.setHandler(handler);
  }

  /** Answers a dialog by hand (when no `onUiRequest` handler is installed). */
  respondToUi(id: string, answer: UiAnswer): void {
    this.send({ type: "extension_ui_response", id, ...answer });
  }

  /**
   * Resolves once the agent is idle: waits out a run in progress (`agent_end`), then polls
   * `get_state` until `isStreaming` is false, so retries, compaction and other automatic
   * continuations after an `agent_end` are waited for too.
   */
  async waitForIdle(opts: { timeoutMs?: number } = {}): Promise<void> {
    const deadline = opts.timeoutMs === undefined ? undefined : Date.now() + opts.timeoutMs;
    for (;;) {
      if (this.agentRunning) {
        const woke = await this.nextWake(1_000, deadline);
        if (woke !== "timer") continue;
      }
      const state = await this.getState();
      if (!state.isStreaming) {
        this.agentRunning = false;
        return;
      }
      await this.nextWake(100, deadline);
    }
  }

  /**
   * Prompts and waits until the agent is idle; resolves with the messages of every run the
   * prompt caused (the concatenated `agent_end.messages`). Rejects on a (late) prompt error.
   */
  async promptAndWait(message: string, opts: PromptAndWaitOptions = {}): Promise<AgentMessage[]> {
    const messages: AgentMessage[] = [];
    const offEnd = this.on("agent_end", (frame) => messages.push(...frame.messages));
    let failLate: (err: Error) => void = () => {};
    const late = new Promise<never>((_resolve, reject) => (failLate = reject));
    late.catch(() => undefined);
    const { id, promise } = this.requestWithId("prompt", {
      message,
      images: opts.images,
      streamingBehavior: opts.streamingBehavior,
    });
    const unwatch = this.watchLateError(id, (err) => failLate(err));
    try {
      await Promise.race([promise, late]);
      await Promise.race([this.waitForIdle({ timeoutMs: opts.timeoutMs }), late]);
      return messages;
    } finally {
      offEnd();
      unwatch();
    }
  }

  /** Resolves with the type of the next idle-relevant frame, or "timer" after `pollMs`. */
  private nextWake(pollMs: number, deadline: number | undefined): Promise<string> {
    const left = deadline === undefined ? Infinity : deadline - Date.now();
    if (left <= 0) return Promise.reject(new RpcClientError("timeout", "the agent did not become idle in time"));
    return new Promise((resolve, reject) => {
      const finish = (fn: () => void) => {
        clearTimeout(timer);
        offAny();
        offExit();
        fn();
      };
      const timer = setTimeout(() => finish(() => resolve("timer")), Math.min(pollMs, left));
      const offAny = this.onAny((frame) => {
        if (WAKE_TYPES.has(frame.type)) finish(() => resolve(frame.type));
      });
      const offExit = this.onExit(() =>
        finish(() => reject(new RpcClientError("exited", "the agent exited while waiting for idle", this.stderr))),
      );
    });
  }

  protected override handleFrame(frame: Record<string, unknown> & { type: string }): void {
    switch (frame.type) {
      case "agent_start":
        this.agentRunning = true;
        return;
      case "agent_end":
        this.agentRunning = false;
        return;
      case "host_tool_call":
        this.hostTools.handleCall(frame as never);
        return;
      case "host_tool_cancel":
        this.hostTools.handleCancel(frame as never);
        return;
      case "extension_ui_request":
        this.ui.handleRequest(frame as never);
        return;
    }
  }

  protected override handleExit(): void {
    this.agentRunning = false;
    this.hostTools.abortAll();
    this.ui.abortAll();
  }
}
