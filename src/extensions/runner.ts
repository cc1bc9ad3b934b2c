// The ExtensionRunner the session drives: fans events out to handlers (load order, then
// registration order, each awaited), adapts registered tools, runs slash commands. A throwing
// handler is reported through `onError` and the remaining handlers still run.
import { errorMessage } from "../shared/errors.js";
import type { ToolCall } from "../shared/types.js";
import type { Tool, ToolOutcome } from "../tools/types.js";
import type { LoadedExtensions } from "./loader.js";
import { createCommandContext, createExtensionContext, createUiContext } from "./context.js";
import { parseSlashCommand, type ExtensionCommandInfo } from "./command.js";
import type {
  AgentBeforeSettleEvent,
  BeforeAgentStartEvent,
  BeforeAgentStartOutcome,
  BoundaryContext,
  BoundaryDraft,
  BoundaryResult,
  CancelResult,
  ContextEvent,
  ContextEventResult,
  ExtensionEvent,
  InputEvent,
  InputOutcome,
  MessageEndEventResult,
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
import type { ExtensionHost } from "./host.js";
import { expandPromptText, skillsPromptSection } from "./prompt-expansion.js";
import type { LoadedResources } from "./resources.js";
import { discoverResources, mergeResources } from "./discovered-resources.js";
import {
  beforeAgentStartReducer,
  cancelReducer,
  contextReducer,
  inputReducer,
  messageEndReducer,
  toolCallReducer,
  toolResultReducer,
  treeReducer,
  userBashReducer,
  type Reducer,
} from "./reducers.js";
import { adaptExtensionTool, toolDefinitionProblem } from "./tool-adapter.js";
import { withUiPromptEvents } from "./ui-prompt-events.js";
import type {
  ExtensionCommandContext,
  ExtensionContext,
  ExtensionErrorInfo,
  ExtensionErrorListener,
  LoadedExtension,
  ServiceStatusContribution,
  AnyToolDefinition,
} from "./types.js";

type CancelEvent = Extract<SessionLifecycleEvent, { type: "session_before_switch" | "session_before_fork" }>;
type TreeEvent = Extract<SessionLifecycleEvent, { type: "session_before_tree" }>;
type MessageEndEvent = Extract<ExtensionEvent, { type: "message_end" }>;
type CompactEvent = Extract<SessionLifecycleEvent, { type: "session_before_compact" }>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each event's reducer has its own result type
const REDUCERS: Record<string, () => Reducer<any, unknown>> = {
  tool_call: toolCallReducer,
  tool_result: toolResultReducer,
  context: contextReducer,
  before_agent_start: beforeAgentStartReducer,
  input: inputReducer,
  message_end: messageEndReducer,
  user_bash: userBashReducer,
  session_before_switch: cancelReducer,
  session_before_fork: cancelReducer,
  session_before_tree: treeReducer,
  session_before_compact: cancelReducer,
};

export class ExtensionRunner {
  private readonly list: LoadedExtension[];
  /** Skills and prompt templates the loaded packages declare. */
  private resources: LoadedResources | undefined;
  private readonly host: ExtensionHost;
  private readonly onError: ExtensionErrorListener;
  private readonly ctx: ExtensionContext;
  private readonly adapted = new Map<AnyToolDefinition, Tool>();
  private readonly rejected = new Set<AnyToolDefinition>();
  private turnIndex = 0;
  private shutdownFlag = false;

  constructor(loaded: LoadedExtensions, host: ExtensionHost, onError: ExtensionErrorListener) {
    this.list = [...loaded.extensions];
    this.resources = loaded.resources;
    this.host = host;
    this.onError = onError;
    loaded.runtime.host = host;
    loaded.runtime.onError = onError;
    const ui = withUiPromptEvents(host.ui, (event) => void this.emit(event));
    this.ctx = createExtensionContext(host, createUiContext(ui), () => this.requestShutdown());
    for (const p of loaded.runtime.pendingProviders.splice(0)) {
      try {
        if (host.registerProvider) host.registerProvider(p.name, p.config);
        else onError({ extensionPath: p.extension.path, event: "registerProvider", error: "registerProvider is not supported by pith in this mode; ignored" });
      } catch (err) {
        onError({ extensionPath: p.extension.path, event: "registerProvider", error: errorMessage(err) });
      }
    }
  }

  /** The extensions, in load order. */
  get extensions(): readonly LoadedExtension[] {
    return this.list;
  }

  /**
   * Extensions loaded after this runner started (a folder trusted at run time, sharing this
   * runner's runtime): they run after those already here and get their own `session_start`.
   */
  async add(more: readonly LoadedExtension[]): Promise<void> {
    this.list.push(...more);
    await this.fanOut({ type: "session_start", reason: "startup" }, undefined, more);
  }

  /**
   * pi's `project_trust`: the extensions, in load order, are asked whether to trust `cwd`; the
   * first handler answering "yes" or "no" decides ("undecided", anything else or a throw passes on).
   */
  async decideProjectTrust(cwd: string): Promise<{ trusted: boolean; remember: boolean } | undefined> {
    const ctx = Object.create(this.ctx, { mode: { value: this.ctx.hasUI ? "rpc" : "print", enumerable: true } }) as ExtensionContext;
    for (const ext of this.list) {
      for (const handler of ext.handlers.get("project_trust") ?? []) {
        let answer: unknown;
        try {
          answer = await handler({ type: "project_trust", cwd }, ctx);
        } catch (err) {
          this.onError({ extensionPath: ext.path, event: "project_trust", error: errorMessage(err) });
          continue;
        }
        const a = answer as { trusted?: unknown; remember?: unknown } | undefined;
        if (a?.trusted === "yes" || a?.trusted === "no") return { trusted: a.trusted === "yes", remember: a.remember === true };
      }
    }
    return undefined;
  }

  /** Set by `ctx.shutdown()`: the host exits after handling its next command. */
  get shutdownRequested(): boolean {
    return this.shutdownFlag;
  }

  get context(): ExtensionContext {
    return this.ctx;
  }

  hasHandlers(type: string): boolean {
    return this.extensions.some((e) => (e.handlers.get(type)?.length ?? 0) > 0);
  }

  emit(event: ToolCallEvent): Promise<ToolCallEventResult | undefined>;
  emit(event: ToolResultEvent): Promise<ToolResultEventResult | undefined>;
  emit(event: ContextEvent): Promise<ContextEventResult | undefined>;
  emit(event: BeforeAgentStartEvent): Promise<BeforeAgentStartOutcome | undefined>;
  emit(event: InputEvent): Promise<InputOutcome | undefined>;
  emit(event: UserBashEvent): Promise<UserBashEventResult | undefined>;
  emit(event: MessageEndEvent): Promise<MessageEndEventResult | undefined>;
  emit(event: CancelEvent): Promise<CancelResult | undefined>;
  emit(event: TreeEvent): Promise<SessionBeforeTreeResult | undefined>;
  emit(event: CompactEvent): Promise<SessionBeforeCompactResult | undefined>;
  emit(event: ExtensionEvent): Promise<void>;
  /** Never rejects. Result-bearing events answer their combined result, others undefined. */
  async emit(event: ExtensionEvent): Promise<unknown> {
    const decorated = this.decorate(event);
    if (!this.hasHandlers(event.type)) return undefined;
    const make = REDUCERS[event.type];
    const reducer = make ? make() : undefined;
    // Chained events see the previous handler's changes: give them a private copy.
    const current = reducer ? { ...decorated } : decorated;
    await this.fanOut(current, reducer);
    return reducer?.done(current);
  }

  /**
   * pi's boundary events: each handler sees the drafts and `continue` so far and the context
   * they would give; its `entries` / `continue` replace them. `context` builds the preview.
   */
  async emitBoundary(
    base: Omit<AgentBeforeSettleEvent, "entries" | "continue" | "context">,
    context: (entries: BoundaryDraft[]) => BoundaryContext,
  ): Promise<{ entries: BoundaryDraft[]; continue: boolean }> {
    let entries: BoundaryDraft[] = [];
    let next = false;
    for (const ext of this.extensions) {
      for (const handler of ext.handlers.get(base.type) ?? []) {
        try {
          const result = (await handler({ ...base, entries, continue: next, context: context(entries) }, this.ctx)) as BoundaryResult | undefined;
          if (Array.isArray(result?.entries)) entries = result.entries;
          if (typeof result?.continue === "boolean") next = result.continue;
        } catch (err) {
          this.onError({ extensionPath: ext.path, event: base.type, error: errorMessage(err) });
        }
      }
    }
    return { entries, continue: next };
  }

  /** Reports a problem with what an extension asked for (an `extension_error`). */
  reportError(info: ExtensionErrorInfo): void {
    this.onError(info);
  }

  private decorate(event: ExtensionEvent): ExtensionEvent {
    switch (event.type) {
      case "agent_start":
        this.turnIndex = 0;
        return event;
      case "turn_start":
        return { turnIndex: this.turnIndex, timestamp: Date.now(), ...event };
      case "turn_end":
        return { turnIndex: this.turnIndex++, ...event };
      default:
        return event;
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- see REDUCERS
  private async fanOut(event: ExtensionEvent, reducer: Reducer<any, unknown> | undefined, to: readonly LoadedExtension[] = this.list): Promise<void> {
    for (const ext of to) {
      for (const handler of ext.handlers.get(event.type) ?? []) {
        let result: unknown;
        try {
          result = await handler(event, this.ctx);
        } catch (err) {
          const message = errorMessage(err);
          this.onError({ extensionPath: ext.path, event: event.type, error: message });
          if (reducer?.thrown?.(event, ext.path, message)) return;
          continue;
        }
        const report = (error: string) => this.onError({ extensionPath: ext.path, event: event.type, error });
        if (result !== undefined && result !== null && reducer?.step(event, result, report)) return;
      }
    }
  }

  /**
   * `AgentLoopConfig.wrapToolExecution` (bound: pass it as is): `tool_call` may block,
   * `tool_result` may patch.
   */
  readonly wrapToolExecution = async (call: ToolCall, tool: Tool, run: () => Promise<ToolOutcome>): Promise<ToolOutcome> => {
    if (!this.hasHandlers("tool_call") && !this.hasHandlers("tool_result")) return run();
    const input = call.arguments;
    const block = await this.emit({ type: "tool_call", toolName: tool.name, toolCallId: call.id, input });
    if (block?.block) {
      return { result: { content: [{ type: "text", text: block.reason ?? "" }], details: {} }, isError: true };
    }
    const outcome = await run();
    const patch = await this.emit({
      type: "tool_result",
      toolName: tool.name,
      toolCallId: call.id,
      input,
      content: outcome.result.content,
      details: outcome.result.details,
      isError: outcome.isError,
    });
    if (!patch) return outcome;
    const result = { ...outcome.result };
    if (patch.content) result.content = patch.content;
    if ("details" in patch) result.details = patch.details;
    return { result, isError: patch.isError ?? outcome.isError };
  };

  /** Every extension tool (first registration of a name wins), as pith Tools. */
  registeredTools(): Tool[] {
    const tools: Tool[] = [];
    const names = new Set<string>();
    for (const ext of this.extensions) {
      for (const def of ext.tools.values()) {
        const tool = this.adapt(ext, def);
        if (!tool || names.has(tool.name)) continue;
        names.add(tool.name);
        tools.push(tool);
      }
    }
    return tools;
  }

  private adapt(ext: LoadedExtension, def: AnyToolDefinition): Tool | undefined {
    const known = this.adapted.get(def);
    if (known || this.rejected.has(def)) return known;
    const problem = toolDefinitionProblem(def);
    if (problem) {
      this.rejected.add(def);
      this.onError({ extensionPath: ext.path, event: "registerTool", error: problem });
      return undefined;
    }
    const tool = adaptExtensionTool(def, () => this.ctx);
    this.adapted.set(def, tool);
    return tool;
  }

  /** pi's `resources_discover`: the skills and prompt templates handlers name join the packages' own. */
  async discoverResources(reason: "startup" | "reload"): Promise<void> {
    const more = await discoverResources(this.list, this.ctx, reason, this.onError);
    if (more) this.resources = mergeResources(this.resources, more);
  }

  /** Every extension's service status checks (get_integrations), in load order. */
  serviceStatuses(): ServiceStatusContribution[] {
    return this.extensions.flatMap((ext) => [...ext.serviceStatuses.values()]);
  }

  /** Slash commands a prompt may start with: extension commands, then prompt templates, then skills (pi's order). */
  commands(): ExtensionCommandInfo[] {
    const out = this.extensionCommands();
    for (const t of this.resources?.prompts ?? []) out.push({ name: t.name, description: t.description, source: "prompt", path: t.filePath });
    for (const s of this.resources?.skills ?? []) out.push({ name: `skill:${s.name}`, description: s.description, source: "skill", path: s.filePath });
    return out;
  }

  /** The commands extensions registered (first registration of a name wins). */
  extensionCommands(): ExtensionCommandInfo[] {
    const out: ExtensionCommandInfo[] = [];
    const seen = new Set<string>();
    for (const ext of this.extensions) {
      for (const [name, def] of ext.commands) {
        if (seen.has(name)) continue;
        seen.add(name);
        const info: ExtensionCommandInfo = { name, source: "extension", path: ext.path };
        if (def.description !== undefined) info.description = def.description;
        out.push(info);
      }
    }
    return out;
  }

  /** A `/skill:name` or `/template` prompt as the model receives it; other text unchanged. */
  expandPrompt(text: string): string {
    try {
      return expandPromptText(text, this.resources);
    } catch (err) {
      this.onError({ extensionPath: text.split(/\s/)[0], event: "skill_expansion", error: errorMessage(err) });
      return text;
    }
  }

  /** The `<available_skills>` section of the system prompt ("" without skills). */
  skillsPrompt(): string {
    return skillsPromptSection(this.resources?.skills ?? []);
  }

  /**
   * Runs `/name args` when `name` is an extension command: resolves true once the handler
   * finished (a throwing handler is reported as `command:<name>`), false when it is not one.
   */
  async runCommand(text: string, overrides?: Partial<ExtensionCommandContext>): Promise<boolean> {
    const parsed = parseSlashCommand(text);
    if (!parsed) return false;
    const def = this.extensions.map((e) => e.commands.get(parsed.name)).find((d) => d !== undefined);
    if (!def) return false;
    const ctx = createCommandContext(this.host, this.ctx);
    if (overrides) Object.assign(ctx, overrides);
    try {
      await def.handler(parsed.args, ctx);
    } catch (err) {
      this.onError({ extensionPath: `command:${parsed.name}`, event: "command", error: errorMessage(err) });
    }
    return true;
  }

  private requestShutdown(): void {
    this.shutdownFlag = true;
    this.host.onShutdownRequested?.();
  }
}
