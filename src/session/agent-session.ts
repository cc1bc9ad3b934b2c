// AgentSession: the one public surface of a session, which every front door (RPC, print/json,
// ACP) drives. It wires its collaborators once — each receives what it needs and knows none of
// the others — and offers a small typed API grouped by concern plus one event stream. It does
// not know which front door drives it, and shares nothing mutable with another session in the
// same process except what is passed in (model registry, settings, storage, stream function).
import { SubagentRegistry } from "./subagent-registry.js";
import type { ModelRegistry } from "../providers/models/registry.js";
import type { StreamFn } from "../providers/types.js";
import { PithError, errorMessage } from "../shared/errors.js";
import type { SandboxStateWire } from "../shared/schema/index.js";
import type { AgentMessage, CompactionResult, CustomMessage, Model, ThinkingLevel, UserContent } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import { Compactor } from "./compactor.js";
import { Conversation } from "./conversation.js";
import { compactionObserver } from "./extension-compaction.js";
import { EventHub, type SessionListener } from "./event-hub.js";
import { ExtensionHooks } from "./extension-hooks.js";
import { createExtensionHost } from "./extension-host.js";
import { createSessionView } from "./extension-session-view.js";
import type { ReadonlySessionManager } from "../extensions/index.js";
import { Liveness, type ActivitySnapshot } from "./liveness.js";
import { PromptExtras } from "./prompt-extras.js";
import { PromptTracker, type PromptId, type PromptOutcome } from "./prompt-tracker.js";
import { MessageQueues, queuedText, userMessage } from "./queues.js";
import { RetryController } from "./retry-controller.js";
import { RunController } from "./run-controller.js";
import { RunPipeline } from "./run-pipeline.js";
import { SessionCheckpoints } from "./session-checkpoints.js";
import { beforeSettle } from "./settle-boundary.js";
import { SessionExtensions } from "./session-extensions.js";
import { SessionCatalog } from "./session-catalog.js";
import { SessionHistory } from "./session-history.js";
import { SessionModels } from "./session-models.js";
import { SessionMcp, type McpWiring } from "./session-mcp.js";
import { SessionLsp, type LspWiring } from "./session-lsp.js";
import { SessionModes } from "./session-modes.js";
import { SessionPermissions, type GrantStore } from "./session-permissions.js";
import { approveFileWrites } from "./permission-gate.js";
import { SessionTrust, type ProjectTrustPort } from "./session-trust.js";
import { buildSessionState, type SessionState } from "./session-state.js";
import { deferredMatcher, SessionTools, type TodoAccess } from "./session-tools.js";
import { takeNewSettings, type SessionSettings } from "./settings.js";
import type { SessionLog } from "../store/session-log.js";
import { contentText } from "../store/message-text.js";
import type { SessionStorage } from "../store/storage.js";
import { TodoState } from "./todos/index.js";
import { BUSY_ERROR, type PromptHandle, type PromptOptions } from "./types.js";
import { UserBash } from "./user-bash.js";
import { StructuredOutput } from "./structured-output.js";
import { compileOutputSchema, OutputSchemaError, type OutputSpec } from "../tools/index.js";
import { operationTable, runOperation } from "./operation-table.js";
import { registerWiring } from "./session-wiring.js";
import type { BashResult } from "./user-bash.js";
import type { ExtensionCommandInfo } from "../extensions/index.js";
import type { PermissionAsker } from "./session-permissions.js";
import type { OperationTable, SessionOp, SessionOpResult } from "./operations.js";

/** What the composition root hands a session: values and narrow interfaces, no environment. */
export interface AgentSessionOptions {
  cwd: string;
  pithHome: string;
  settings: SessionSettings;
  registry: ModelRegistry;
  stream: StreamFn;
  /** Where `new_session`, `switch_session`, branch and clone open and create session files. */
  storage: SessionStorage;
  /** The session file the session starts with (opened or created through `storage`). */
  file: SessionLog;
  /** Where new sessions are written; undefined keeps them in memory. */
  sessionDir: string | undefined;
  /** Builds the built-in tools (already filtered by --tools/--no-tools) around the todo list. */
  createTools(todos: TodoAccess): Tool[];
  /** The system prompt for a tool list. */
  buildSystemPrompt(tools: Tool[]): string;
  /** Model chosen by CLI/settings; a model recorded in the session wins when available. */
  initialModel?: Model;
  initialThinkingLevel?: ThinkingLevel;
  /** `--models` scope for cycle_model. */
  scopedModels?: Model[];
  /** Temp dir for full bash outputs. */
  tempDir: string;
  /** Where the `bash` command keeps its shell state (the sandbox binds it writable); default `tempDir`. */
  shellStateDir?: string;
  /** Called last when the session closes: removes the session's temp folder. */
  releaseTempDir?(): Promise<void>;
  /** `--provider-session-id`: the provider-side session / prompt-cache id; default: the session id. */
  providerSessionId?: string;
  /** Environment of the host's `bash` commands (credentials filtered out); default: pith's own. */
  childEnv?: Record<string, string>;
  /** PATH searched for `git` when file checkpoints are on. */
  pathEnv?: string;
  /** The sandbox of the bash tool and the `bash` command (built by the composition root); absent: off. */
  sandbox?: SessionSandbox;
  /** The MCP servers the composition root started (session-mcp.ts); none when absent. */
  mcp?: McpWiring;
  /** The language servers the composition root set up (`lsp.enabled`); none when absent. */
  lsp?: LspWiring;
  /** Which extension tools the session offers (a subagent's agent definition); all when absent. */
  allowExtensionTool?(name: string): boolean;
  /** Where the project's "Allow always" grants are kept (the user's store); in memory only when absent. */
  grants?: GrantStore;
  /** The folder's project trust (session-trust.ts); absent: untrusted, nothing to grant. */
  projectTrust?: ProjectTrustPort;
  /** Diagnostics (stderr). */
  log(message: string): void;
}

/** What the session needs of its sandbox: the state to show, the wrapper for `bash` commands, the clean-up. */
export interface SessionSandbox {
  readonly state: SandboxStateWire;
  wrap(line: { file: string; args: string[] }, cwd: string): { file: string; args: string[] };
  dispose(): Promise<void>;
}

const SANDBOX_OFF: SandboxStateWire = { mode: "off", network: false, writableRoots: [] };

export class AgentSession {
  readonly cwd: string;
  /** Model and thinking-level selection. */
  private readonly models: SessionModels;
  /** The session file and its tree: new/switch/branch/clone, name, stats, export. */
  private readonly history: SessionHistory;
  /** The tools offered to the model, host tools, the todo list. */
  private readonly tools: SessionTools;
  /** Queue and interrupt modes, auto-compaction, auto-retry. */
  private readonly modes: SessionModes;
  /** The extensions attached by the front door. */
  private readonly extensions: SessionExtensions;
  /** The host's own shell commands (`bash` / `abort_bash`). */
  private readonly bash: UserBash;
  /** File checkpoints of the cwd, one per user message (`fileCheckpoints.*`). */
  private readonly checkpoints: SessionCheckpoints;
  /** Permission mode and rules, the project's "Allow always" grants, the approval dialog port. */
  private readonly permissions: SessionPermissions;
  /** MCP servers: status, host servers, their tools. */
  private readonly mcp: SessionMcp;
  /** Language servers: their status (`get_lsp_servers`). */
  private readonly lsp: SessionLsp;
  /** Session files for pickers: list, entries, tree, open a folder, delete. */
  private readonly catalog: SessionCatalog;
  /** Whether the folder's project layer is loaded; the host's run-time grant. */
  private readonly trust: SessionTrust;

  private readonly settings: SessionSettings;
  private readonly events = new EventHub();
  /** The `task` tool's subagents (oh-my-pi's get_subagents, subagent_lifecycle). */
  private readonly subagents = new SubagentRegistry((e) => this.events.emit(e));
  private readonly conversation: Conversation;
  private readonly queues: MessageQueues;
  private readonly retry: RetryController;
  private readonly runs: RunController;
  private readonly compactor: Compactor;
  private readonly hooks: ExtensionHooks;
  private readonly pipeline: RunPipeline;
  private readonly tracker = new PromptTracker();
  private readonly structured: StructuredOutput;
  private readonly liveness: Liveness;
  private readonly sandbox: SessionSandbox | undefined;
  private readonly storage: SessionStorage;
  /** `ctx.sessionManager`: one object for the session's whole life, reading whichever file is open. */
  private readonly sessionView: ReadonlySessionManager;
  private readonly extras: PromptExtras;
  /** Builds the built-in tools again when the settings change (`reconfigure`). */
  private readonly buildTools: () => Tool[];
  private readonly releaseTempDir: (() => Promise<void>) | undefined;
  /** Which part answers each operation (operation-table.ts). */
  private readonly ops: OperationTable;

  constructor(o: AgentSessionOptions) {
    this.cwd = o.cwd;
    this.sandbox = o.sandbox;
    this.storage = o.storage;
    this.releaseTempDir = o.releaseTempDir;
    const settings = structuredClone(o.settings);
    this.settings = settings;
    const emit = (e: Parameters<EventHub["emit"]>[0]) => {
      this.liveness.observe(e);
      this.events.emit(e);
      // pi's `agent_settled`: extensions hear it too (after the host).
      if (e.type === "agent_settled") this.hooks.forward(e);
    };
    const runner = () => this.extensions.current;
    // Providers this session's extensions register stay in this session.
    const registry = o.registry.scope();
    const todos = new TodoState({ clearDelaySeconds: settings.todo.clearDelaySeconds, onAutoClear: () => emit({ type: "todo_auto_clear" }) });
    this.conversation = new Conversation({
      log: o.file,
      models: registry,
      todos,
      warn: o.log,
      initialModel: o.initialModel,
      initialThinkingLevel: o.initialThinkingLevel,
    });
    this.structured = new StructuredOutput({
      record: (outcome) => this.conversation.log.append({ type: "custom", customType: "structured_result", data: outcome }),
    });
    this.permissions = new SessionPermissions(settings.permissions, () => this.conversation.log, o.log, o.grants);
    this.queues = new MessageQueues(settings);
    this.modes = new SessionModes(settings, this.queues);
    this.retry = new RetryController(() => settings.retry, emit);
    this.models = new SessionModels({
      conversation: this.conversation,
      registry,
      scopedModels: o.scopedModels,
      pithHome: o.pithHome,
      observer: {
        modelSelected: async (model, previousModel, source) => void (await runner()?.emit({ type: "model_select", model, previousModel, source })),
        thinkingLevelSelected: (level, previousLevel) => void runner()?.emit({ type: "thinking_level_select", level, previousLevel }),
      },
    });
    this.extensions = new SessionExtensions((bindings) => createExtensionHost(this.hosted(), bindings));
    this.mcp = new SessionMcp(o.mcp);
    this.lsp = new SessionLsp(o.lsp);
    this.trust = new SessionTrust(o.projectTrust, o.cwd, () => this.isStreaming);
    this.buildTools = () => o.createTools({ get: () => todos.getWithDetails(), set: (p) => todos.set(p) });
    const builtin = this.buildTools();
    const isDeferred = deferredMatcher(o.settings.deferredTools ?? []);
    this.tools = new SessionTools({ builtin, todos, runner, buildSystemPrompt: o.buildSystemPrompt, mcpTools: () => this.mcp.tools(), isDeferred, allowExtensionTool: o.allowExtensionTool });
    this.hooks = new ExtensionHooks(runner, () => this.tools.systemPrompt());
    this.compactor = new Compactor({
      conversation: this.conversation,
      settings,
      isAutoEnabled: () => this.modes.autoCompactionEnabled,
      stream: o.stream,
      requireModel: () => this.models.require(),
      requireApiKey: (m) => this.models.requireApiKey(m),
      emit,
      observer: compactionObserver(runner, settings),
    });
    const extras = new PromptExtras({
      conversation: this.conversation,
      settings,
      queues: this.queues,
      hasTool: (name) => this.tools.has(name),
      emit,
      cwd: o.cwd,
      pithHome: o.pithHome,
      projectTrusted: () => this.trust.trusted,
      log: o.log,
    });
    this.extras = extras;
    this.checkpoints = new SessionCheckpoints({
      cwd: o.cwd,
      pithHome: o.pithHome,
      settings: settings.fileCheckpoints,
      pathEnv: o.pathEnv,
      conversation: this.conversation,
      isBusy: () => this.isStreaming,
      exclusive: (work) => this.runs.busy(work),
      emit,
      log: o.log,
    });
    const checkpointsOn = settings.fileCheckpoints?.enabled === true;
    this.pipeline = new RunPipeline({
      conversation: this.conversation,
      settings,
      queues: this.queues,
      retry: this.retry,
      compactor: this.compactor,
      extras,
      hooks: this.hooks,
      tools: this.tools,
      models: this.models,
      permissions: this.permissions,
      stream: o.stream,
      tracker: this.tracker,
      structured: this.structured,
      cwd: o.cwd,
      providerSessionId: o.providerSessionId,
      isBusy: () => this.isStreaming,
      beforePrompt: (signal) => this.mcp.beforePrompt(signal),
      emit,
      onUserMessage: checkpointsOn ? (entryId, message) => this.checkpoints.onUserMessage(entryId, contentText(message.content)) : undefined,
      beforeTool: checkpointsOn ? () => this.checkpoints.beforeTool() : undefined,
      beforeSettle: (last) => beforeSettle({ runner, conversation: this.conversation, queues: this.queues, view: this.sessionView, announce: (m) => this.announce(m) }, last),
    });
    this.runs = new RunController({
      runLoop: (prompts, signal) => this.pipeline.runLoop(prompts, signal),
      afterRun: (last, signal) => this.pipeline.afterRun(last, signal),
      onInternalError: (message) => o.log(`internal error: ${message}`),
      chainEnded: (end) => {
        this.structured.chainEnded();
        this.tracker.chainEnded(end);
      },
      idle: () => this.liveness.check(),
    });
    this.liveness = new Liveness({
      isBusy: () => this.runs.isBusy,
      isCompacting: () => this.compactor.isCompacting,
      hasQueuedMessages: () => this.queues.hasSteering || this.queues.hasFollowUps,
      runPromptId: () => this.tracker.runPromptId,
      emit,
    });
    this.history = new SessionHistory({
      conversation: this.conversation,
      storage: o.storage,
      cwd: o.cwd,
      sessionDir: o.sessionDir,
      runner,
      quiesce: () => this.quiesce(),
      replaceLog: (log) => {
        this.pipeline.forgetPendingBash();
        this.conversation.replaceLog(log);
        this.permissions.reload();
        // As oh-my-pi: another session file forgets the previous one's subagents (get_subagent_messages too).
        this.subagents.clear();
      },
      clearQueues: () => {
        const dropped = this.queues.clear();
        this.structured.dropped(dropped);
        this.tracker.dropped(dropped);
        this.liveness.check();
      },
      exportInfo: () => ({ systemPrompt: this.tools.systemPrompt(), tools: this.tools.active().map((t) => ({ name: t.name, description: t.description })) }),
      log: o.log,
    });
    this.catalog = new SessionCatalog({ history: this.history, storage: o.storage, cwd: o.cwd, pithHome: o.pithHome });
    this.bash = new UserBash({
      cwd: o.cwd,
      settings,
      childEnv: o.childEnv,
      tempDir: o.tempDir,
      stateDir: o.shellStateDir,
      runner,
      record: (m) => this.pipeline.recordBash(m),
      wrapCommand: o.sandbox ? (line, dir) => o.sandbox!.wrap(line, dir) : undefined,
    });
    this.ops = operationTable({
      ...this.parts(),
      runner,
      getState: () => this.getState(),
      prompt: (text, options) => this.prompt(text, options),
      steer: (text, images, promptId) => this.steer(text, images, promptId),
      followUp: (text, images, promptId, output) => this.followUp(text, images, promptId, output),
      compileOutputSchema: (schema) => this.compileOutputSchema(schema),
      abort: () => this.abort(),
      abortRetry: () => this.abortRetry(),
      clearQueue: () => this.clearQueue(),
      compact: (instructions) => this.compact(instructions),
      storage: this.storage,
    });
    registerWiring(this, {
      ...this.parts(),
      reconfigure: (next) => this.reconfigure(next),
      approveFileWrites: (paths, call) => this.approveFileWrites(paths, call),
    });
    this.sessionView = createSessionView({
      cwd: o.cwd,
      log: () => this.conversation.log,
      sessionDir: () => this.history.sessionDir,
      messages: () => this.conversation.messages,
      model: () => this.conversation.model,
      thinkingLevel: () => this.conversation.thinkingLevel,
    });
    this.recordStartState();
  }

  /**
   * Runs one operation of the protocol's command table and resolves with its typed result; it
   * rejects with the error a front door writes on the failed response.
   */
  async handle<O extends SessionOp>(op: O): Promise<SessionOpResult<O["type"]>> {
    return (await runOperation(this.ops, op)) as SessionOpResult<O["type"]>;
  }

  // ── identity, events, state ───────────────────────────────────────────────

  /** The id of the session file currently open (changes with new/switch/branch/clone). */
  get id(): string {
    return this.conversation.log.sessionId;
  }

  /** Every event, in order; returns the unsubscribe function. */
  subscribe(listener: SessionListener): () => void {
    return this.events.subscribe(listener);
  }

  /** True from the moment a prompt is accepted until every continuation has settled. */
  get isStreaming(): boolean {
    return this.runs.isBusy;
  }

  /** No run, retry wait, compaction or queued message (`session_settled` was or will be sent). */
  get isSettled(): boolean {
    return this.liveness.isSettled;
  }

  /** What the session is doing now and how long since the provider or a tool was last heard from. */
  activity(): ActivitySnapshot {
    return this.liveness.snapshot();
  }

  /** The `get_state` view. */
  getState(): SessionState {
    return buildSessionState({
      isSettled: this.isSettled,
      conversation: this.conversation,
      settings: this.settings,
      isStreaming: this.isStreaming,
      isCompacting: this.compactor.isCompacting,
      autoCompactionEnabled: this.modes.autoCompactionEnabled,
      queuedMessageCount: this.queues.count,
      systemPrompt: this.tools.systemPrompt(),
      tools: this.tools.active(),
      permissions: this.permissions.state(),
      sandbox: this.sandbox ? structuredClone(this.sandbox.state) : SANDBOX_OFF,
      projectTrust: this.trust.state(),
      unavailableTools: this.tools.unavailable(),
      lspServers: this.lsp.enabled ? this.lsp.servers() : undefined,
    });
  }

  /**
   * Before a tool other than edit/write changes files (the lsp tool's rename): each file is judged
   * as an `edit` of it by the permission rules, asking the host when they say so. Rejects with why
   * when one may not be changed.
   */
  private approveFileWrites(paths: readonly string[], call: { toolCallId: string; signal: AbortSignal }): Promise<void> {
    return approveFileWrites({ permissions: this.permissions, cwd: this.cwd, signal: call.signal }, paths, call.toolCallId);
  }

  /**
   * New settings under an idle session (the composition root loaded its folder's project layer):
   * they apply from now on, the built-in tools are built again and the rule files read again. The
   * switches the host sets by command (queue and interrupt modes, auto-compaction, auto-retry)
   * and the permission keys it set keep the session's values; file checkpoints stay as started.
   */
  private async reconfigure(next: SessionSettings): Promise<void> {
    const s = this.settings;
    takeNewSettings(s, next);
    this.permissions.applySettings(s.permissions);
    this.extras.reload();
    await this.tools.replaceBuiltin(this.buildTools(), deferredMatcher(s.deferredTools ?? []));
  }

  // ── what a front door wires: its dialogs, its tools, its command list ──

  /** The approval dialogs of the permission rules go to this asker (the front door's dialogs); none: refused. */
  setPermissionAsker(asker: PermissionAsker | undefined): void {
    this.permissions.setAsker(asker);
  }

  /** Replaces the front door's host tools (their calls go out through the front door's frames). */
  setHostTools(tools: Tool[]): void {
    this.tools.setHostTools(tools);
  }

  /** The slash commands a prompt may start with (extension, prompt-template and skill commands). */
  slashCommands(): ExtensionCommandInfo[] {
    return this.extensions.commands();
  }

  /** The model selected now (undefined until one is configured). */
  get model(): Model | undefined {
    return this.models.current;
  }

  /** The session file open now; undefined for a session kept in memory. */
  get sessionFile(): string | undefined {
    return this.history.sessionFile;
  }

  /**
   * Admits a `bash` command the moment it arrives, before the commands ahead of it have run, so an
   * `abort_bash` sent after it cancels it even while it waits its turn; returns the run.
   */
  admitBash(command: string): () => Promise<BashResult> {
    const admitted = this.bash.admit();
    return () => this.bash.run(command, admitted);
  }

  /** An extension called `ctx.shutdown()`: the front door ends the process after the current command. */
  get shutdownRequested(): boolean {
    return this.extensions.shutdownRequested;
  }

  /** Tells extensions the session is shutting down (`session_shutdown`). */
  shutdownExtensions(): Promise<void> {
    return this.extensions.shutdown();
  }

  // ── prompting and queues ──────────────────────────────────────────────────

  /**
   * Starts the prompt pipeline. Extension commands run immediately; extensions' `input` handlers
   * may transform or handle the text; while busy the message is queued per `streamingBehavior`
   * or rejected with the busy error.
   */
  prompt(text: string, options: PromptOptions = {}): PromptHandle {
    if (typeof text !== "string") return rejected(new PithError("invalid_request", 'Invalid "message": expected string'));
    if (options.expandPromptTemplates !== false && this.hooks.isExtensionCommand(text)) {
      const done = this.hooks.runExtensionCommand(text);
      return { accepted: Promise.resolve(), done, outcome: localOutcome(done) };
    }
    if (!this.hooks.hasHandlers("input")) return this.startPrompt(text, options);
    const behavior = this.isStreaming ? options.streamingBehavior : undefined;
    const next = this.hooks
      .input(text, options.images ?? [], options.source ?? "rpc", behavior)
      .then((input) => input && this.startPrompt(input.text, { ...options, images: input.images }));
    return {
      accepted: next.then((h) => h?.accepted),
      done: next.then((h) => h?.done),
      outcome: next.then((h) => h?.outcome ?? HANDLED_BY_EXTENSION),
    };
  }

  /** A prompt after the `input` handlers: skills and templates expanded, then queued or run. */
  private startPrompt(text: string, options: PromptOptions): PromptHandle {
    // A package's skill (`/skill:name`) or prompt template (`/name`) becomes the text it stands for.
    if (options.expandPromptTemplates !== false) text = this.hooks.expandPrompt(text);
    if (this.isStreaming) {
      const behavior = options.streamingBehavior;
      if (!behavior) return rejected(new PithError("busy", BUSY_ERROR));
      const outcome = this.enqueue(behavior, text, options.images ?? [], options.promptId, options.output);
      return { accepted: Promise.resolve(), done: Promise.resolve(), outcome };
    }
    return this.startRun(options.promptId, (signal, accept) => this.pipeline.preparePrompt(text, options.images ?? [], signal, accept, options.output));
  }

  /**
   * Starts a run chain whose prompt messages `prepare` builds; `accept` is called once the
   * checks a host must hear about at once have passed.
   */
  private startRun(promptId: PromptId | undefined, prepare: (signal: AbortSignal, accept: () => void) => Promise<AgentMessage[]>): PromptHandle {
    let accept!: () => void;
    let reject!: (err: unknown) => void;
    const accepted = new Promise<void>((res, rej) => {
      accept = res;
      reject = rej;
    });
    let acceptedNow = false;
    this.liveness.markActive();
    const outcome = this.tracker.startChain(promptId);
    const done = this.runs.start(async (signal) => {
      try {
        return await prepare(signal, () => {
          acceptedNow = true;
          accept();
        });
      } catch (err) {
        reject(err);
        throw err;
      }
    });
    // `done` rejects only for failures after the ack (a late error for the host).
    return { accepted, done: done.catch((err) => (acceptedNow ? Promise.reject(err) : undefined)), outcome };
  }

  /**
   * Queues a steering message; never starts a run. Resolves once the run that took it and all
   * the work that run caused finished (or when it is dropped with the queue).
   */
  private steer(text: string, images: UserContent[] = [], promptId?: PromptId): Promise<PromptOutcome> {
    this.assertQueueable(text);
    return this.queueInput("steer", text, images, promptId);
  }

  /** pi's `clear_queue`: drops queued steering and follow-up messages (their senders hear `aborted`); returns their texts. */
  private clearQueue(): { steering: string[]; followUp: string[] } {
    const { steering, followUp } = this.queues.drain();
    const dropped = [...steering, ...followUp];
    this.structured.dropped(dropped);
    this.tracker.dropped(dropped);
    this.liveness.check();
    return { steering: steering.map(queuedText), followUp: followUp.map(queuedText) };
  }

  /** Queues a follow-up message; never starts a run. Resolves as for `steer`. */
  private followUp(text: string, images: UserContent[] = [], promptId?: PromptId, output?: OutputSpec): Promise<PromptOutcome> {
    this.assertQueueable(text);
    return this.queueInput("followUp", text, images, promptId, output);
  }

  /**
   * Checks and compiles a host's output schema (JSON Schema, at most 64 KiB) for `prompt`'s
   * `output` option or `followUp`; rejects with a clear error when it cannot be used.
   */
  async compileOutputSchema(schema: unknown): Promise<OutputSpec> {
    try {
      return await compileOutputSchema(schema);
    } catch (err) {
      if (err instanceof OutputSchemaError) throw new PithError("invalid_request", err.message);
      throw err;
    }
  }

  /**
   * Cancels the retry backoff, a running compaction (the session stays as it was), the
   * continuations and the running run; resolves once idle.
   */
  async abort(): Promise<void> {
    this.retry.cancelBackoff();
    this.compactor.abort();
    await this.runs.abort();
  }

  /** Resolves when nothing is in flight. */
  waitForIdle(): Promise<void> {
    return this.runs.whenIdle();
  }

  /** Resolves once idle and the `session_settled` that going idle may bring has been emitted. */
  async waitForSettled(): Promise<void> {
    await this.runs.whenIdle();
    await this.liveness.whenChecked();
  }

  /** `abort_retry`: cancels a sleeping retry backoff. */
  private abortRetry(): void {
    this.retry.cancelBackoff();
  }

  // ── compaction ────────────────────────────────────────────────────────────

  /** Manual `compact`: stops the run, then summarises with the current model. */
  private async compact(customInstructions?: string): Promise<CompactionResult> {
    await this.abort();
    const job = await this.compactor.prepareManual(customInstructions);
    this.liveness.markActive();
    return this.runs.busy(job);
  }

  /** Stops everything and releases the session file; the session is not used afterwards. */
  /** Every step runs even when an earlier one fails (the file's lock and the temp folder are always released); the failures are reported together. */
  async close(): Promise<void> {
    const failures: string[] = [];
    const step = async (what: string, f: () => unknown): Promise<void> => {
      try {
        await f();
      } catch (err) {
        failures.push(`${what}: ${errorMessage(err)}`);
      }
    };
    this.bash.abort();
    await step("abort", () => this.abort());
    await step("checkpoints", () => this.checkpoints.settle());
    this.conversation.todos.dispose();
    await step("MCP servers", () => this.mcp.close());
    await step("language servers", () => this.lsp.close());
    await step("tools", () => this.tools.dispose());
    await step("session file", () => this.conversation.log.close());
    await step("sandbox", () => this.sandbox?.dispose());
    await step("temp folder", () => this.releaseTempDir?.());
    if (failures.length > 0) throw new PithError("internal", `Closing the session: ${failures.join("; ")}`);
  }

  // ── internals ─────────────────────────────────────────────────────────────

  private assertQueueable(text: string): void {
    if (typeof text !== "string") throw new PithError("invalid_request", 'Invalid "message": expected string');
    const name = this.hooks.commandName(text);
    if (name) {
      throw new PithError(
        "invalid_request",
        `Extension command "/${name}" cannot be queued. Use prompt() or execute the command when not streaming.`,
      );
    }
  }

  /** `steer` / `follow_up`: the `input` handlers, skills and templates, then the queue (as pi). */
  private queueInput(behavior: "steer" | "followUp", text: string, images: UserContent[], promptId: PromptId | undefined, output?: OutputSpec): Promise<PromptOutcome> {
    // Without `input` handlers the outcome is the queue's own promise: no extra tick, so results keep their order.
    if (!this.hooks.hasHandlers("input")) return this.enqueue(behavior, this.hooks.expandPrompt(text), images, promptId, output);
    return this.hooks.input(text, images, "rpc", this.isStreaming ? behavior : undefined).then((input) =>
      input ? this.enqueue(behavior, this.hooks.expandPrompt(input.text), input.images, promptId, output) : HANDLED_BY_EXTENSION,
    );
  }

  private enqueue(behavior: "steer" | "followUp", text: string, images: UserContent[], promptId: PromptId | undefined, output?: OutputSpec): Promise<PromptOutcome> {
    const message = userMessage(text, images);
    const outcome = this.tracker.queue(message, promptId);
    if (output) this.structured.queue(message, output);
    if (behavior === "followUp") this.queues.followUp(message);
    else this.queues.steer(message);
    this.liveness.markActive();
    return outcome;
  }

  private async quiesce(): Promise<void> {
    await this.abort();
    this.retry.reset();
  }

  /**
   * A brand-new session records the chosen model and thinking level first. A file
   * that was opened is never written by loading it (not even one whose entries were all damaged).
   */
  private recordStartState(): void {
    const log = this.conversation.log;
    if (log.isPersisted || log.entryCount > 0) return;
    const model = this.conversation.model;
    if (model) log.append({ type: "model_change", provider: model.provider, modelId: model.id });
    const level = this.conversation.thinkingLevel;
    if (level !== undefined) log.append({ type: "thinking_level_change", thinkingLevel: level });
  }

  /** The collaborators the operation table hands operations to. */
  private parts() {
    const { models, history, tools, modes, extensions, bash, checkpoints, permissions, mcp, lsp, catalog, trust, subagents } = this;
    return { models, history, tools, modes, extensions, bash, checkpoints, permissions, mcp, lsp, catalog, trust, subagents };
  }

  /** A message added outside a run, shown to the host (`message_start` / `message_end`). */
  private announce(message: CustomMessage): void {
    this.events.emit({ type: "message_start", message });
    this.events.emit({ type: "message_end", message });
  }

  /** The parts extensions may act on (the ExtensionHost port is built over them). */
  private hosted(): Parameters<typeof createExtensionHost>[0] {
    return {
      cwd: this.cwd,
      conversation: this.conversation,
      queues: this.queues,
      models: this.models,
      history: this.history,
      isBusy: () => this.isStreaming,
      abort: () => this.abort(),
      prompt: (text, options) => this.prompt(text, options),
      trigger: (message) => this.startRun(undefined, (signal, accept) => this.pipeline.prepareMessages([message], signal, accept)),
      waitForIdle: () => this.waitForIdle(),
      systemPrompt: () => this.tools.systemPrompt(),
      tools: this.tools,
      sessionView: this.sessionView,
      extensions: () => this.extensions.current,
      signal: () => this.runs.signal,
      announce: (message) => this.announce(message),
      compact: (instructions) => this.compact(instructions),
      reload: () => this.extensions.reload(),
      isProjectTrusted: () => this.trust.trusted,
    };
  }
}

function rejected(err: Error): PromptHandle {
  const accepted = Promise.reject(err);
  const outcome: PromptOutcome = { agentInvoked: false, status: "error", error: { message: err.message, retryable: false } };
  return { accepted, done: accepted.catch(() => undefined), outcome: Promise.resolve(outcome) };
}

/** Input an extension's `input` handler took over: nothing runs. */
const HANDLED_BY_EXTENSION: PromptOutcome = { agentInvoked: false, status: "completed" };

/** An extension command runs without the agent: completed, or an error if it threw. */
function localOutcome(done: Promise<void>): Promise<PromptOutcome> {
  return done.then(
    (): PromptOutcome => ({ agentInvoked: false, status: "completed" }),
    (err: unknown): PromptOutcome => ({ agentInvoked: false, status: "error", error: { message: err instanceof Error ? err.message : String(err), retryable: false } }),
  );
}
