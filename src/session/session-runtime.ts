// The working state behind AgentSession: context, model, store, tools, and the glue that
// turns one prompt into agent runs (pre-flight, the loop config, persistence of events, and
// the decision what happens after each run).
import { runAgentLoop } from "../agent/loop.js";
import type { AgentLoopConfig } from "../agent/types.js";
import { PithError } from "../shared/errors.js";
import { resolveThinkingLevel } from "../providers/models/thinking.js";
import type {
  AgentEvent,
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  Model,
  ThinkingLevel,
  UserContent,
} from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import type { AgentSession } from "./agent-session.js";
import { convertToLlm } from "./convert-to-llm.js";
import { isContextOverflow } from "./compaction/overflow.js";
import type { Continuation } from "./run-controller.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionStore } from "./store/session-store.js";
import { buildSessionContext } from "./store/build-context.js";
import { TodoState, todosFromHistory, normalizeTodoPhases } from "./todos/index.js";
import { userMessage } from "./queues.js";
import { Compactor } from "./compactor.js";
import { PromptExtras } from "./prompt-extras.js";
import { ExtensionHooks } from "./extension-hooks.js";

export class SessionRuntime {
  messages: AgentMessage[] = [];
  model: Model | undefined;
  thinkingLevel: ThinkingLevel | undefined;
  store: SessionStore;
  readonly todos: TodoState;
  hostTools: Tool[] = [];
  private builtinTools: Tool[];
  private cachedPrompt: { tools: Tool[]; text: string } | undefined;
  private pendingBash: BashExecutionMessage[] = [];
  readonly compactor: Compactor;
  readonly extras: PromptExtras;
  readonly hooks: ExtensionHooks;
  /** Set while a TTSR rule interrupted the stream; consumed by afterRun. */
  ttsrFired: AgentMessage | undefined;

  constructor(
    private readonly session: AgentSession,
    private readonly deps: SessionDeps,
  ) {
    this.store = deps.store;
    this.todos = new TodoState({
      clearDelaySeconds: session.settings.todo.clearDelaySeconds,
      onAutoClear: () => session.emit({ type: "todo_auto_clear" }),
    });
    this.builtinTools = deps.createTools({ get: () => this.todos.getWithDetails(), set: (p) => this.todos.set(p) });
    this.compactor = new Compactor(session, this, deps);
    this.hooks = new ExtensionHooks(this, deps);
    this.extras = new PromptExtras(session, this, deps);
    this.loadFromStore(deps.initialModel, deps.initialThinkingLevel);
  }

  // ── context and store ───────────────────────────────────────────────────────

  /** Rebuilds context, model and thinking level from the store's current branch. */
  loadFromStore(fallbackModel?: Model, fallbackThinking?: ThinkingLevel): void {
    const ctx = buildSessionContext(this.store);
    this.messages = ctx.messages;
    const recorded = ctx.model ? this.deps.registry.find(ctx.model.provider, ctx.model.modelId) : undefined;
    const usable = recorded && this.deps.registry.hasCredentials(recorded.provider) ? recorded : undefined;
    this.model = usable ?? fallbackModel ?? this.model;
    const level = ctx.thinkingLevel ?? fallbackThinking ?? this.thinkingLevel;
    this.thinkingLevel = this.model ? resolveThinkingLevel(this.model, level) : level;
    this.todos.set(todosFromHistory(this.messages));
  }

  /** Replaces the store (new/switch/branch) and reloads everything from it. */
  replaceStore(store: SessionStore): void {
    if (store !== this.store) this.store.close();
    this.store = store;
    this.pendingBash = [];
    this.loadFromStore();
  }

  persist(message: AgentMessage): void {
    try {
      this.store.appendMessage(message);
    } catch (err) {
      this.deps.log(`failed to persist a message: ${(err as Error).message}`);
    }
  }

  // ── tools and prompt ────────────────────────────────────────────────────────

  activeTools(): Tool[] {
    const ext = this.deps.extensions?.registeredTools() ?? [];
    return [...this.builtinTools, ...ext, ...this.hostTools].filter((t) => !t.hidden);
  }

  /** Names of every registered tool that is not a host tool (host tools may not reuse them). */
  nonHostToolNames(): string[] {
    const ext = this.deps.extensions?.registeredTools() ?? [];
    return [...this.builtinTools, ...ext].map((t) => t.name);
  }

  get systemPrompt(): string {
    const tools = this.activeTools();
    const c = this.cachedPrompt;
    if (c && c.tools.length === tools.length && c.tools.every((t, i) => t === tools[i])) return c.text;
    const text = this.deps.buildSystemPrompt(tools);
    this.cachedPrompt = { tools, text };
    return text;
  }

  setTodos(phases: unknown): import("../shared/types.js").TodoPhase[] {
    this.todos.set(normalizeTodoPhases(phases));
    return this.todos.get();
  }

  // ── prompt pipeline ─────────────────────────────────────────────────────────

  isExtensionCommand(text: string): boolean {
    return this.hooks.isExtensionCommand(text);
  }
  runExtensionCommand(text: string): Promise<void> {
    return this.hooks.runExtensionCommand(text);
  }
  assertQueueable(text: string): void {
    if (typeof text !== "string") throw new PithError("invalid_request", 'Invalid "message": expected string');
    const name = this.hooks.commandName(text);
    if (name) {
      throw new PithError(
        "invalid_request",
        `Extension command "/${name}" cannot be queued. Use prompt() or execute the command when not streaming.`,
      );
    }
  }

  /**
   * Pre-flight of a prompt; returns the run's prompt messages. The checks a host must hear about
   * at once (model, key, images) run first, then `accept` is called, then the slower work
   * (pre-prompt compaction, extension hooks). Throws to reject the prompt.
   */
  async preparePrompt(text: string, images: UserContent[], signal: AbortSignal, accept: () => void): Promise<AgentMessage[]> {
    const model = this.requireModel();
    await this.requireApiKey(model);
    if (images.length > 0 && !model.input.includes("image")) {
      throw new PithError("invalid_request", `Model ${model.provider}/${model.id} does not accept images`);
    }
    accept();
    // Let the acknowledgement (a chain of microtasks in the mode) go out before any event.
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.flushPendingBash();
    this.session.retry.reset();
    this.extras.resetForPrompt();
    await this.compactor.beforePrompt(signal);
    const user = userMessage(text, images);
    return this.extras.assemblePrompt(user, signal);
  }

  requireModel(): Model {
    if (!this.model) {
      throw new PithError(
        "no_model",
        "No model selected.\n\nSet an API key environment variable (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, ...), " +
          `or configure a provider in ${this.deps.pithHome}/models.json, then select a model with set_model ` +
          "(or start pith with --provider/--model; --provider scripted runs offline).",
      );
    }
    return this.model;
  }

  async requireApiKey(model: Model): Promise<string | undefined> {
    if (this.deps.registry.hasCredentials(model.provider)) return this.deps.registry.getApiKey(model.provider);
    throw new PithError(
      "no_api_key",
      `No API key found for ${model.provider}.\n\nSet the provider's API key environment variable or configure it in ${this.deps.pithHome}/models.json`,
    );
  }

  // ── one run ─────────────────────────────────────────────────────────────────

  async runLoop(prompts: AgentMessage[], signal: AbortSignal): Promise<AgentMessage[]> {
    const model = this.requireModel();
    const apiKey = await this.deps.registry.getApiKey(model.provider);
    const config = this.loopConfig(apiKey);
    return runAgentLoop({ messages: this.messages, prompts, signal, emit: (e) => this.onAgentEvent(e) }, config);
  }

  private loopConfig(apiKey: string | undefined): AgentLoopConfig {
    const ext = this.deps.extensions;
    return {
      stream: this.deps.stream,
      getCwd: () => this.deps.cwd,
      getModel: () => this.requireModel(),
      getSystemPrompt: () => this.hooks.systemPromptOverride ?? this.systemPrompt,
      getTools: () => this.activeTools(),
      getStreamOptions: () => {
        const toolChoice = this.extras.takeForcedToolChoice();
        const { firstByteTimeoutMs, idleTimeoutMs } = this.session.settings.retry;
        const sessionId = this.deps.providerSessionId ?? this.store.sessionId;
        const base = { thinkingLevel: this.thinkingLevel, apiKey, sessionId, firstByteTimeoutMs, idleTimeoutMs };
        return toolChoice ? { ...base, toolChoice } : base;
      },
      convertToLlm,
      transformContext: ext?.hasHandlers("context") ? (m, s) => this.hooks.transformContext(m, s) : undefined,
      pollSteering: () => this.session.queues.pollSteering(),
      pollFollowUps: () => this.session.queues.pollFollowUps(),
      getInterruptMode: () => this.session.settings.interruptMode,
      wrapToolExecution: ext ? (call, tool, run) => this.hooks.wrapToolExecution(call, tool, run) : undefined,
      onAssistantUpdate: (e) => this.extras.onAssistantUpdate(e),
    };
  }

  /** Every agent event: persist, update state, then deliver to extensions and subscribers. */
  private onAgentEvent(event: AgentEvent): void {
    if (event.type === "message_start" && event.message.role === "assistant") this.extras.onAssistantStart();
    if (event.type === "message_end") {
      const m = event.message;
      this.persist(m);
      if (m.role === "assistant") {
        this.session.retry.onAssistantEnd(m);
        this.extras.onAssistantEnd(m);
      }
    }
    this.hooks.forward(event);
    this.session.emit(event);
  }

  // ── after a run ─────────────────────────────────────────────────────────────

  async afterRun(last: AssistantMessage | undefined, signal: AbortSignal): Promise<Continuation> {
    const ttsr = this.extras.takeTtsrContinuation(last);
    if (ttsr) return ttsr;
    if (last?.stopReason === "aborted") return { kind: "stop" };
    const overflow = !!last && this.model !== undefined && isContextOverflow(last, this.model.contextWindow);
    if (await this.session.retry.shouldRetry(last, signal, overflow)) {
      this.dropTrailingError();
      return { kind: "continue", prompts: [] };
    }
    if (signal.aborted) return { kind: "stop" };
    const compaction = await this.compactor.afterRun(last, overflow, signal);
    if (compaction) return compaction;
    if (last && last.stopReason !== "error") {
      const reminder = this.extras.todoReminder(last);
      if (reminder) return reminder;
    }
    return this.deliverQueued();
  }

  /** Messages queued after the loop's last poll would otherwise wait for the next prompt. */
  private deliverQueued(): Continuation {
    const q = this.session.queues;
    if (!q.hasSteering && !q.hasFollowUps) return { kind: "stop" };
    const last = this.messages[this.messages.length - 1];
    if (last?.role === "assistant" && last.stopReason === "error") return { kind: "stop" };
    const prompts = q.hasSteering ? q.pollSteering() : q.pollFollowUps();
    return { kind: "continue", prompts };
  }

  /** Removes a trailing error assistant message from the in-memory context (kept in the file). */
  dropTrailingError(): void {
    const last = this.messages[this.messages.length - 1];
    if (last?.role === "assistant" && last.stopReason === "error") this.messages.pop();
  }

  // ── user bash records ───────────────────────────────────────────────────────

  recordBash(message: BashExecutionMessage): void {
    if (this.session.isStreaming) {
      this.pendingBash.push(message);
      return;
    }
    this.messages.push(message);
    this.persist(message);
  }

  private flushPendingBash(): void {
    for (const m of this.pendingBash.splice(0)) {
      this.messages.push(m);
      this.persist(m);
    }
  }
}
