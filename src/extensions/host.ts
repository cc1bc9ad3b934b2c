// What the session implements so extensions can act on it. Extensions never see the session
// itself: only these callbacks, wrapped by the API object and the handler context.
import type { Model, ThinkingLevel, UserContent } from "../shared/types.js";
import type { CustomMessageInput } from "./events.js";
import type { ReadonlySessionManager } from "./session-view.js";
import type {
  CompactOptions,
  ContextUsage,
  ExecOptions,
  ExecResult,
  ExtensionMode,
  ForkOptions,
  ModelRegistryView,
  NavigateTreeOptions,
  NewSessionOptions,
  ScopedModel,
  SendMessageOptions,
  SendUserMessageOptions,
  SlashCommandInfo,
  SystemPromptOptions,
  ToolInfo,
} from "./types.js";
import type { ExtensionUi } from "./ui.js";

export interface ExtensionHost {
  cwd: string;
  ui: ExtensionUi;
  /** Default true (RPC); print mode passes false. */
  hasUI?: boolean;
  /** How pith was started; default "rpc". */
  mode?: ExtensionMode;
  abort(): void;
  isIdle(): boolean;
  /** May return a promise; a rejection is reported as an extension error, never thrown. */
  sendUserMessage(content: string | UserContent[], opts?: SendUserMessageOptions): void | Promise<void>;
  sendMessage(message: CustomMessageInput, opts?: SendMessageOptions): void | Promise<void>;
  getModel(): Model | undefined;

  // Optional: a member the host leaves out makes the matching API call a clear error
  // (or a neutral value for read-only queries).
  hasPendingMessages?(): boolean;
  /** Called when an extension calls `ctx.shutdown()` (the runner also sets `shutdownRequested`). */
  onShutdownRequested?(): void;
  /** One object for the session's whole life (extensions key maps by it). */
  sessionManager?: ReadonlySessionManager;
  modelRegistry?: ModelRegistryView;
  getScopedModels?(): readonly ScopedModel[];
  /** The running run's abort signal; undefined while idle. */
  getSignal?(): AbortSignal | undefined;
  compact?(options?: CompactOptions): void;
  getSystemPromptOptions?(): SystemPromptOptions;
  getCommands?(): SlashCommandInfo[];
  registerProvider?(name: unknown, config: unknown): void;
  unregisterProvider?(name: string): void;
  getContextUsage?(): ContextUsage | undefined;
  getSystemPrompt?(): string;
  /** Whether the working folder is trusted (its project layer loaded); absent: not trusted. */
  isProjectTrusted?(): boolean;
  appendEntry?(customType: string, data?: unknown): void;
  setSessionName?(name: string): void;
  getSessionName?(): string | undefined;
  setLabel?(entryId: string, label: string | undefined): void;
  getActiveTools?(): string[];
  getAllTools?(): ToolInfo[];
  setActiveTools?(names: string[]): void;
  setModel?(model: Model): Promise<boolean>;
  getThinkingLevel?(): ThinkingLevel | undefined;
  setThinkingLevel?(level: ThinkingLevel): void;
  /** Replaces the built-in subprocess runner of `pi.exec`. */
  exec?(command: string, args: string[], options: ExecOptions): Promise<ExecResult>;
  // Command-handler-only session control.
  waitForIdle?(): Promise<void>;
  /** Runs `options.setup` on the new session (`withSession` is the context's business). */
  newSession?(options?: NewSessionOptions): Promise<{ cancelled: boolean }>;
  fork?(entryId: string, options?: ForkOptions): Promise<{ cancelled: boolean }>;
  navigateTree?(targetId: string, options?: NavigateTreeOptions): Promise<{ cancelled: boolean }>;
  reload?(): Promise<void>;
  switchSession?(sessionPath: string): Promise<{ cancelled: boolean }>;
}
