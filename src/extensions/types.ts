// The extension API, source-compatible with pi's for what pith implements: a module's default
// export is a factory `(pi: ExtensionAPI) => void | Promise<void>`.
import type { Static, TSchema } from "typebox";
import type { AgentMessage, AgentToolResult, CompactionResult, Model, ThinkingLevel, UserContent } from "../shared/types.js";
import type {
  BeforeAgentStartEvent,
  BeforeAgentStartEventResult,
  CancelResult,
  ContextEvent,
  ContextEventResult,
  CustomMessageInput,
  ExtensionEvent,
  ExtensionEventType,
  InputEvent,
  InputEventResult,
  ProjectTrustEventResult,
  SessionBeforeCompactResult,
  SessionBeforeTreeResult,
  SessionLifecycleEvent,
  ToolCallEvent,
  ToolCallEventResult,
  ToolResultEvent,
  ToolResultEventResult,
  UserBashEvent,
  UserBashEventResult,
} from "./events.js";
import type { ReadonlySessionManager } from "./session-view.js";
import type { ExtensionUiContext } from "./ui-context.js";

/** What an `extension_error` frame carries. */
export interface ExtensionErrorInfo {
  extensionPath: string;
  event: string;
  error: string;
}
export type ExtensionErrorListener = (info: ExtensionErrorInfo) => void;

export interface SendMessageOptions {
  triggerTurn?: boolean;
  deliverAs?: "steer" | "followUp" | "nextTurn";
}
export interface SendUserMessageOptions {
  deliverAs?: "steer" | "followUp";
  /** Run a `/command` and expand skills and prompt templates (default false, as pi). */
  expandPromptTemplates?: boolean;
}
export interface ContextUsage {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
}
export interface ExecOptions {
  cwd?: string;
  timeout?: number;
  signal?: AbortSignal;
}
export interface ExecResult {
  stdout: string;
  stderr: string;
  code: number;
  killed: boolean;
}
/** Where a tool or command comes from (pi's `sourceInfo`). */
export interface SourceInfo {
  path: string;
  source: string;
  scope: "user" | "project" | "temporary";
  origin: "package" | "top-level";
  baseDir?: string;
}
/** `pi.getAllTools()`: every tool of the session, active or not. */
export interface ToolInfo {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  promptGuidelines?: string[];
  sourceInfo: SourceInfo;
}
/** `pi.getCommands()`: extension commands, prompt templates and skills. */
export interface SlashCommandInfo {
  name: string;
  description?: string;
  source: "extension" | "prompt" | "skill";
  sourceInfo: SourceInfo;
}
export interface NewSessionOptions {
  parentSession?: string;
  /** Writes into the new session before it is used (after its `session_start`). */
  setup?: (sessionManager: SessionSetupManager) => Promise<void> | void;
  /** Called once the new session is in place, with a context for it. */
  withSession?: (ctx: ReplacedSessionContext) => Promise<void> | void;
}
export interface ForkOptions {
  /** "before" (default): the history before a user message; "at": the branch up to and including the entry. */
  position?: "before" | "at";
  withSession?: (ctx: ReplacedSessionContext) => Promise<void> | void;
}
export interface SwitchSessionOptions {
  withSession?: (ctx: ReplacedSessionContext) => Promise<void> | void;
}
/** What a `newSession` `setup` callback may write (the appending part of pi's SessionManager); each returns the entry id. */
export interface SessionSetupManager extends ReadonlySessionManager {
  appendMessage(message: AgentMessage): string;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendCustomMessageEntry(customType: string, content: string | UserContent[], display: boolean, details?: unknown): string;
  appendSessionInfo(name: string): string;
  appendLabelChange(targetId: string, label: string | undefined): string;
}
/** How the session runs: pith is headless, so never "tui". */
export type ExtensionMode = "tui" | "rpc" | "json" | "print";
export interface ScopedModel {
  model: Model;
  thinkingLevel?: ThinkingLevel;
}
export interface CompactOptions {
  customInstructions?: string;
  onComplete?: (result: CompactionResult) => void;
  onError?: (error: Error) => void;
}
export interface NavigateTreeOptions {
  summarize?: boolean;
  customInstructions?: string;
  replaceInstructions?: boolean;
  label?: string;
}
/** `ctx.modelRegistry`: the models the session knows and their credentials. */
export interface ModelRegistryView {
  getAll(): Model[];
  getAvailable(): Model[];
  find(provider: string, modelId: string): Model | undefined;
  hasConfiguredAuth(model: Model | string): boolean;
  getApiKeyForProvider(provider: string): Promise<string | undefined>;
  getApiKeyAndHeaders(model: Model): Promise<{ ok: true; apiKey?: string; headers?: Record<string, string> } | { ok: false; error: string }>;
  getError(): string | undefined;
  refresh(): Promise<void>;
}
/** The base options the system prompt is built from (pi's BuildSystemPromptOptions, as pith has them). */
export interface SystemPromptOptions {
  cwd: string;
  selectedTools?: string[];
  customPrompt?: string;
  appendSystemPrompt?: string;
  contextFiles?: Array<{ path: string; content: string }>;
  skills?: Array<{ name: string; description: string; filePath: string }>;
}

/** `ctx` given to every handler and tool. */
export interface ExtensionContext {
  ui: ExtensionUiContext;
  /** How pith was started (rpc, json, print); never "tui". */
  mode: ExtensionMode;
  hasUI: boolean;
  cwd: string;
  /** The open session file, read-only (the same object for the whole life of the session). */
  sessionManager: ReadonlySessionManager;
  modelRegistry: ModelRegistryView;
  readonly model: Model | undefined;
  /** `--models` scope; empty when every available model may be used. */
  readonly scopedModels: readonly ScopedModel[];
  readonly thinkingLevel?: ThinkingLevel;
  /** The running run's abort signal; undefined while idle. */
  readonly signal: AbortSignal | undefined;
  isIdle(): boolean;
  /** Whether this folder's project layer (settings, extensions, prompts) is trusted. */
  isProjectTrusted(): boolean;
  /** Starts a compaction without waiting for it; the callbacks say how it ended. */
  compact(options?: CompactOptions): void;
  abort(): void;
  hasPendingMessages(): boolean;
  /** RPC: sets a flag; the host exits after the next command. Print mode: no-op. */
  shutdown(): void;
  getContextUsage(): ContextUsage | undefined;
  getSystemPrompt(): string;
}

/** `ctx` given to command handlers: adds session control. */
export interface ExtensionCommandContext extends ExtensionContext {
  getSystemPromptOptions(): SystemPromptOptions;
  waitForIdle(): Promise<void>;
  newSession(options?: NewSessionOptions): Promise<{ cancelled: boolean }>;
  fork(entryId: string, options?: ForkOptions): Promise<{ cancelled: boolean }>;
  branch(entryId: string): Promise<{ cancelled: boolean }>;
  navigateTree(targetId: string, options?: NavigateTreeOptions): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string, options?: SwitchSessionOptions): Promise<{ cancelled: boolean }>;
  /** Reloads extensions, skills and prompt templates (they see `session_shutdown` then `session_start` with reason "reload"). */
  reload(): Promise<void>;
}

/** The context `withSession` callbacks get: the session after the replacement, and sends that can be awaited. */
export interface ReplacedSessionContext extends ExtensionCommandContext {
  sendMessage(message: CustomMessageInput, options?: SendMessageOptions): Promise<void>;
  sendUserMessage(content: string | UserContent[], options?: SendUserMessageOptions): Promise<void>;
}

export type ToolUpdateCallback = (partial: AgentToolResult) => void;

/** The argument type a schema describes: `Static<T>` for TypeBox, a plain record otherwise. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- pi types a schema-less tool's arguments this way; extensions rely on it
export type ParamsOf<T> = T extends TSchema ? Static<T> : Record<string, any>;

export interface ToolDefinition<TParams extends object = object, Params = ParamsOf<TParams>> {
  name: string;
  label?: string;
  description: string;
  /** TypeBox schema (which is JSON Schema) or a plain JSON Schema object. */
  parameters: TParams;
  hidden?: boolean;
  defaultInactive?: boolean;
  concurrency?: "shared" | "exclusive";
  /**
   * pith: the tool only reads (changes no file, runs no command): it runs in permission mode
   * `read-only` and without asking in `ask-writes`. Absent: it may change anything.
   */
  readOnly?: boolean;
  execute(
    toolCallId: string,
    params: Params,
    signal: AbortSignal | undefined,
    onUpdate: ToolUpdateCallback | undefined,
    ctx: ExtensionContext,
  ): Promise<AgentToolResult>;
  /** TUI rendering hooks: accepted and ignored. */
  renderCall?: unknown;
  renderResult?: unknown;
}

export interface CommandDefinition {
  description?: string;
  handler(args: string, ctx: ExtensionCommandContext): Promise<void> | void;
  getArgumentCompletions?: unknown;
}

// biome-style `void` in a union lets handlers `return;`.
export type ExtensionHandler<E, R = undefined> = (event: E, ctx: ExtensionContext) => Promise<R | void> | R | void;

export interface EventBus {
  on(channel: string, handler: (data: unknown) => void): () => void;
  emit(channel: string, data?: unknown): void;
}

/** What a handler of each result-bearing event may return. */
export interface EventResultMap {
  tool_call: ToolCallEventResult;
  tool_result: ToolResultEventResult;
  context: ContextEventResult;
  before_agent_start: BeforeAgentStartEventResult;
  input: InputEventResult;
  user_bash: UserBashEventResult;
  project_trust: ProjectTrustEventResult;
  session_before_switch: CancelResult;
  session_before_fork: CancelResult;
  session_before_tree: SessionBeforeTreeResult;
  session_before_compact: SessionBeforeCompactResult;
}
export type EventOf<T extends ExtensionEventType> = Extract<ExtensionEvent, { type: T }>;
export type ResultOf<T extends string> = T extends keyof EventResultMap ? EventResultMap[T] : undefined;

/** xcsh's service status contribution: one row of `get_integrations`' `services`. */
export interface ServiceStatusContribution {
  name: string;
  group?: string;
  check: () => Promise<{ state: "connected" | "unauthenticated" | "unavailable"; hint?: string }>;
}

export interface ExtensionAPI {
  /** Returns the function that removes the handler again. */
  on<T extends ExtensionEventType>(event: T, handler: ExtensionHandler<EventOf<T>, ResultOf<T>>): () => void;
  /** Events pith never emits (TUI-only ones) are accepted and never fire. */
  on(event: string, handler: AnyExtensionHandler): () => void;
  registerTool<TParams extends object>(tool: ToolDefinition<TParams>): void;
  registerCommand(name: string, options: CommandDefinition): void;
  registerShortcut(shortcut: string, options: unknown): void;
  /** A `--name` option on pith's command line; `getFlag(name)` answers its value (else the default). */
  registerFlag(name: string, options: FlagOptions): void;
  getFlag(name: string): boolean | string | undefined;
  /** Renderers draw on a terminal: accepted, never called (pith is headless). */
  registerMessageRenderer(customType: string, renderer: unknown): void;
  registerEntryRenderer(customType: string, renderer: unknown): void;
  registerMarkdownTransformer(transformer: (markdown: string, context: { messageType: "user" | "assistant" | "assistant-thinking"; isStreaming: boolean; availableWidth: number }) => string): void;
  registerProvider(name: string | { name?: string; id?: string }, config?: unknown): void;
  unregisterProvider(name: string): void;
  /** xcsh: a status check that `get_integrations` runs (bounded by its timeout). */
  registerServiceStatus(contribution: ServiceStatusContribution): void;
  sendMessage(message: CustomMessageInput, options?: SendMessageOptions): void;
  sendUserMessage(content: string | UserContent[], options?: SendUserMessageOptions): void;
  appendEntry(customType: string, data?: unknown): void;
  setSessionName(name: string): void;
  getSessionName(): string | undefined;
  setLabel(entryId: string, label: string | undefined): void;
  exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
  getActiveTools(): string[];
  getAllTools(): ToolInfo[];
  setActiveTools(names: string[]): void;
  getCommands(): SlashCommandInfo[];
  setModel(model: Model): Promise<boolean>;
  getThinkingLevel(): ThinkingLevel | undefined;
  setThinkingLevel(level: ThinkingLevel): void;
  events: EventBus;
}

export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

export type FlagOptions =
  | { description?: string; type: "boolean"; default?: boolean }
  | { description?: string; type: "string"; default?: string };
/** A flag an extension declared (pi's ExtensionFlag). */
export type ExtensionFlag = FlagOptions & { name: string; extensionPath: string };

/** One loaded module and everything its factory registered. */
export interface LoadedExtension {
  /** Absolute path of the module (the `extensionPath` of errors). */
  path: string;
  handlers: Map<string, AnyExtensionHandler[]>;
  tools: Map<string, AnyToolDefinition>;
  commands: Map<string, CommandDefinition>;
  flags: Map<string, ExtensionFlag>;
  serviceStatuses: Map<string, ServiceStatusContribution>;
}

export type {
  BeforeAgentStartEvent,
  ContextEvent,
  InputEvent,
  SessionLifecycleEvent,
  ToolCallEvent,
  ToolResultEvent,
  UserBashEvent,
};

/** A handler of any event (the runner keeps them per event name; each gets its own event's shape). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyExtensionHandler = ExtensionHandler<any, any>;
/** A tool of any argument type, as extensions register them (each checks its own arguments). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyToolDefinition = ToolDefinition<object, any>;
