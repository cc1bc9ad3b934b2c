// The typed host client. Three layers, each in its own file: the wire (connection.ts: process,
// framing, correlation, events), one method per command (command-methods.ts), and here what a
// host would otherwise write itself: idle detection that survives retries and automatic
// continuations, host tools and extension dialogs answered automatically.
import type { HeartbeatFrame, OutboundFrame, PromptResultFrame, RpcHostToolDefinition } from "../protocol/index.js";
import type { AgentMessage } from "../shared/types.js";
import { RpcCommands } from "./command-methods.js";
import type { ConnectOptions } from "./connection.js";
import { RpcClientError } from "./errors.js";
import { HostToolRunner } from "./host-tool-runner.js";
import type { PromptAndWaitOptions, RpcClientOptions, UiAnswer, UiRequestHandler, AnyHostTool } from "./types.js";
import { UiResponder } from "./ui-responder.js";

/** Frames after which idle may have been reached. */
const WAKE_TYPES: ReadonlySet<string> = new Set(["agent_start", "agent_end", "auto_retry_end", "auto_compaction_end"]);

export class RpcClient extends RpcCommands {
  /** The first session's host tools; the other sessions' are in `sessionTools`. */
  private readonly hostTools = this.newRunner();
  private readonly sessionTools = new Map<string, HostToolRunner>();
  private readonly ui = new UiResponder((f) => this.send(f), (e) => this.reportError(e));
  private agentRunning = false;
  /** Whether the agent writes prompt_result (its get_state has isSettled); learned once. */
  private speaksPromptResult: boolean | undefined;

  constructor(options: RpcClientOptions = {}) {
    super(options);
  }

  /** Spawns the agent, waits for `ready`, and returns the connected client. */
  static async start(options: RpcClientOptions = {}): Promise<RpcClient> {
    return new RpcClient(options).start();
  }

  /** Connects to `pith serve` (`ws://HOST:PORT`, token from its token file), waits for `ready`. */
  static async connect(url: string, options: RpcClientOptions & ConnectOptions = {}): Promise<RpcClient> {
    const { token, headers, ...rest } = options;
    return new RpcClient(rest).connect(url, { token, headers });
  }

  /** True between an `agent_start` and its `agent_end`, as far as the event stream shows. */
  get inRun(): boolean {
    return this.agentRunning;
  }

  // ── dialogs ───────────────────────────────────────────────────────────────

  /**
   * Installs (or removes) the handler that answers select/confirm/input/editor dialogs: the
   * first session's, and those of created sessions without their own (`SessionHandle.onUiRequest`).
   */
  onUiRequest(handler: UiRequestHandler | undefined): void {
    this.ui.setHandler(handler);
  }

  override setUiHandler(handler: UiRequestHandler | undefined, sessionId?: string): void {
    this.ui.setHandler(handler, sessionId);
  }

  /** Answers a dialog by hand (when no `onUiRequest` handler is installed). */
  respondToUi(id: string, answer: UiAnswer): void {
    this.send({ type: "extension_ui_response", id, ...answer });
  }

  // ── waiting for the agent ─────────────────────────────────────────────────

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
   * Prompts and waits for the prompt's own `prompt_result` (written once every retry, compaction
   * and continuation it caused has finished); resolves with the messages of every run meanwhile
   * (the concatenated `agent_end.messages`). Rejects on a (late) prompt error.
   */
  async promptAndWait(message: string, opts: PromptAndWaitOptions = {}): Promise<AgentMessage[]> {
    return (await this.promptForResult(message, opts)).messages;
  }

  /**
   * Like `promptAndWait`, and also resolves with the `prompt_result` (status, error,
   * sessionSettled). An agent without prompt_result (no `isSettled` in its get_state) is waited
   * for until idle instead, and `result` is undefined.
   */
  async promptForResult(message: string, opts: PromptAndWaitOptions = {}): Promise<{ result?: PromptResultFrame; messages: AgentMessage[] }> {
    this.speaksPromptResult ??= (await this.getState()).isSettled !== undefined;
    if (!this.speaksPromptResult) return { messages: await this.promptUntilIdle(message, opts) };
    const messages: AgentMessage[] = [];
    const offEnd = this.on("agent_end", (frame) => messages.push(...frame.messages));
    let failLate: (err: Error) => void = () => {};
    const late = new Promise<never>((_resolve, reject) => (failLate = reject));
    late.catch(() => undefined);
    let id = "";
    const result = this.waitForEvent("prompt_result", { predicate: (f) => f.id === id, timeoutMs: opts.timeoutMs });
    result.catch(() => undefined);
    const sent = this.requestWithId("prompt", { message, images: opts.images, streamingBehavior: opts.streamingBehavior, outputSchema: opts.outputSchema });
    id = sent.id;
    const unwatch = this.watchLateError(id, (err) => failLate(err));
    try {
      await Promise.race([sent.promise, late]);
      const frame = await Promise.race([result, late]);
      return { result: frame, messages };
    } finally {
      offEnd();
      unwatch();
    }
  }

  /**
   * Prompts with an output schema and resolves with the validated structured answer
   * (`prompt_result.output`); rejects with the reason when the run ended without one.
   */
  async promptForOutput<T = unknown>(message: string, schema: object, opts: Omit<PromptAndWaitOptions, "outputSchema"> = {}): Promise<T> {
    const { result } = await this.promptForResult(message, { ...opts, outputSchema: schema });
    if (!result) throw new Error("This agent does not send prompt_result, so it cannot return structured results");
    if (result.status === "completed" && "output" in result) return result.output as T;
    throw new Error(result.error?.message ?? `The prompt ended ${result.status} without a structured result`);
  }

  /** Agents without prompt_result: prompt, then wait until get_state says idle. */
  private async promptUntilIdle(message: string, opts: PromptAndWaitOptions): Promise<AgentMessage[]> {
    const messages: AgentMessage[] = [];
    const offEnd = this.on("agent_end", (frame) => messages.push(...frame.messages));
    let failLate: (err: Error) => void = () => {};
    const late = new Promise<never>((_resolve, reject) => (failLate = reject));
    late.catch(() => undefined);
    const { id, promise } = this.requestWithId("prompt", { message, images: opts.images, streamingBehavior: opts.streamingBehavior });
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

  /** Calls `handler` with every `heartbeat` frame (turn them on with `setHeartbeat`). */
  onHeartbeat(handler: (frame: HeartbeatFrame) => void): () => void {
    return this.on("heartbeat", handler);
  }

  /**
   * Resolves when the session is settled (no run, retry wait, compaction or queued message): at
   * once when `get_state` says so, else at the next `session_settled`.
   */
  async waitForSettled(opts: { timeoutMs?: number } = {}): Promise<void> {
    const settled = this.waitForEvent("session_settled", { timeoutMs: opts.timeoutMs });
    settled.catch(() => undefined);
    if ((await this.getState()).isSettled === true) return;
    await settled;
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

  // ── frames served automatically ───────────────────────────────────────────

  override registerHostTools(tools: AnyHostTool[], sessionId?: string): RpcHostToolDefinition[] {
    return this.runnerFor(sessionId).register(tools);
  }

  /**
   * Closes a session opened with createSession; its running host tool calls and open dialogs are
   * aborted, and its dialog handler is dropped.
   */
  override async closeSession(sessionId: string): ReturnType<RpcCommands["closeSession"]> {
    const res = await super.closeSession(sessionId);
    this.sessionTools.get(sessionId)?.abortAll();
    this.sessionTools.delete(sessionId);
    this.ui.dropSession(sessionId);
    return res;
  }

  private newRunner(): HostToolRunner {
    return new HostToolRunner((f) => this.send(f), (e) => this.reportError(e));
  }

  /** The runner answering session `sessionId`'s host tool calls (one with no tools until registered). */
  private runnerFor(sessionId: string | undefined): HostToolRunner {
    if (sessionId === undefined) return this.hostTools;
    let runner = this.sessionTools.get(sessionId);
    if (!runner) this.sessionTools.set(sessionId, (runner = this.newRunner()));
    return runner;
  }

  protected override handleFrame(frame: OutboundFrame): void {
    // a created session's frames carry its id; waitForIdle and the first session's host tools see only the first's
    const sessionId = (frame as { sessionId?: string }).sessionId;
    switch (frame.type) {
      case "agent_start":
        if (sessionId === undefined) this.agentRunning = true;
        return;
      case "agent_end":
        if (sessionId === undefined) this.agentRunning = false;
        return;
      case "host_tool_call":
        this.runnerFor(sessionId).handleCall(frame);
        return;
      case "host_tool_cancel":
        (sessionId === undefined ? this.hostTools : this.sessionTools.get(sessionId))?.handleCancel(frame);
        return;
      case "extension_ui_request":
        this.ui.handleRequest(frame);
        return;
    }
  }

  protected override handleExit(): void {
    this.agentRunning = false;
    this.hostTools.abortAll();
    for (const runner of this.sessionTools.values()) runner.abortAll();
    this.ui.abortAll();
  }
}
