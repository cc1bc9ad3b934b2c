// The extension API, source-compatible with pi's for what pith implements: a module's default
// export is a factory `(pi: ExtensionAPI) => void | Promise<void>`.
import type { Static, TSchema } from "typebox";
import type { AgentToolResult, Model, ThinkingLevel, UserContent } from "../shared/types.js";
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
  SessionLifecycleEvent,
  ToolCallEvent,
  ToolCallEventResult,
  ToolResultEvent,
  ToolResultEventResult,
  UserBashEvent,
  UserBashEventResult,
} from "./events.js";
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
export interface ToolInfo {
  name: string;
  description: string;
}
export interface NewSessionOptions {
  parentSession?: string;
}

/** `ctx` given to every handler and tool. */
export interface ExtensionContext {
  ui: ExtensionUiContext;
  hasUI: boolean;
  cwd: string;
  /** A read-only view the host chose to expose (entries, branch, leaf...), if any. */
  sessionManager: unknown;
  modelRegistry: unknown;
  readonly model: Model | undefined;
  isIdle(): boolean;
  abort(): void;
  hasPendingMessages(): boolean;
  /** RPC: sets a flag; the host exits after the next command. Print mode: no-op. */
  shutdown(): void;
  getContextUsage(): ContextUsage | undefined;
  getSystemPrompt(): string;
  /** pi: whether the working folder is trusted (its project layer is loaded). */
  isProjectTrusted(): boolean;
}

/** `ctx` given to command handlers: adds session control. */
export interface ExtensionCommandContext extends ExtensionContext {
  waitForIdle(): Promise<void>;
  newSession(options?: NewSessionOptions): Promise<{ cancelled: boolean }>;
  fork(entryId: string): Promise<{ cancelled: boolean }>;
  branch(entryId: string): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string): Promise<{ cancelled: boolean }>;
}

export type ToolUpdateCallback = (partial: AgentToolResult) => void;

/** The argument type a schema describes: `Static<T>` for TypeBox, a plain record otherwise. */
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
  session_before_branch: CancelResult;
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
  on<T extends ExtensionEventType>(event: T, handler: ExtensionHandler<EventOf<T>, ResultOf<T>>): void;
  /** Events pith never emits (TUI-only ones) are accepted and never fire. */
  on(event: string, handler: ExtensionHandler<any, any>): void;
  registerTool<TParams extends object>(tool: ToolDefinition<TParams>): void;
  registerCommand(name: string, options: CommandDefinition): void;
  registerShortcut(shortcut: string, options: unknown): void;
  registerFlag(name: string, options: { description?: string; type: "boolean" | "string"; default?: boolean | string }): void;
  getFlag(name: string): boolean | string | undefined;
  registerMessageRenderer(customType: string, renderer: unknown): void;
  registerProvider(name: string, config: unknown): void;
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
  setModel(model: Model): Promise<boolean>;
  getThinkingLevel(): ThinkingLevel | undefined;
  setThinkingLevel(level: ThinkingLevel): void;
  events: EventBus;
}

export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

/** One loaded module and everything its factory registered. */
export interface LoadedExtension {
  /** Absolute path of the module (the `extensionPath` of errors). */
  path: string;
  handlers: Map<string, ExtensionHandler<any, any>[]>;
  tools: Map<string, ToolDefinition<object, any>>;
  commands: Map<string, CommandDefinition>;
  flags: Map<string, boolean | string | undefined>;
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
