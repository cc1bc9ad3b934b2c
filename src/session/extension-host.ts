// The ExtensionHost port (defined by src/extensions/) that a session implements for its
// extensions: narrow callbacks over the session's parts, never the session object itself.
import type {
  CustomMessageInput,
  ExtensionHost,
  ExtensionMode,
  ExtensionRunner,
  ExtensionUi,
  ModelRegistryView,
  NewSessionOptions,
  ReadonlySessionManager,
  SessionSetupManager,
  SendMessageOptions,
  SendUserMessageOptions,
  SlashCommandInfo,
  ToolInfo,
} from "../extensions/index.js";
import type { AgentMessage, CompactionResult, CustomMessage, Model, UserContent } from "../shared/types.js";
import type { Tool } from "../tools/types.js";
import type { Conversation } from "./conversation.js";
import type { MessageQueues } from "./queues.js";
import type { SessionHistory } from "./session-history.js";
import type { SessionModels } from "./session-models.js";
import type { SessionTools } from "./session-tools.js";
import { contentText } from "../store/message-text.js";
import type { PromptHandle, PromptOptions } from "./types.js";

/** How the front door's UI and error reporting reach extensions (RPC, print/json, ACP). */
export interface ExtensionBindings {
  ui: ExtensionUi;
  hasUI: boolean;
  /** How pith was started (`ctx.mode`); default "rpc". */
  mode?: ExtensionMode;
  /** Errors raised after loading (handlers, commands, the shared event bus). */
  onError(info: { extensionPath: string; event: string; error: string }): void;
  /** A prompt an extension started failed (no host command to answer). */
  onPromptError(command: "extension_send" | "extension_send_user", message: string): void;
  onShutdownRequested?(): void;
}

/** The parts of a session its extensions may act on. */
export interface HostedSession {
  cwd: string;
  conversation: Conversation;
  queues: MessageQueues;
  models: SessionModels;
  history: SessionHistory;
  extensions(): ExtensionRunner | undefined;
  isBusy(): boolean;
  abort(): Promise<void>;
  prompt(text: string, options?: PromptOptions): PromptHandle;
  /** Starts a run with `message` as its prompt (an extension's `sendMessage` with `triggerTurn` while idle). */
  trigger(message: CustomMessage): PromptHandle;
  waitForIdle(): Promise<void>;
  systemPrompt(): string;
  tools: SessionTools;
  /** The same view for the session's whole life. */
  sessionView: ReadonlySessionManager;
  signal(): AbortSignal | undefined;
  /** Tells subscribers about a message added outside a run (`message_start` / `message_end`). */
  announce(message: CustomMessage): void;
  compact(customInstructions?: string): Promise<CompactionResult>;
  /** Loads the extensions again (`ctx.reload()`); absent when the front door cannot. */
  reload?(): Promise<void>;
  /** Whether the working folder's project layer is trusted (the trust layer answers). */
  isProjectTrusted(): boolean;
}

export function createExtensionHost(s: HostedSession, opts: ExtensionBindings): ExtensionHost {
  const log = () => s.conversation.log;
  return {
    cwd: s.cwd,
    ui: opts.ui,
    hasUI: opts.hasUI,
    abort: () => void s.abort(),
    isIdle: () => !s.isBusy(),
    hasPendingMessages: () => s.queues.count > 0,
    onShutdownRequested: opts.onShutdownRequested,
    getModel: () => s.conversation.model,
    getSystemPrompt: () => s.systemPrompt(),
    isProjectTrusted: () => s.isProjectTrusted(),
    sendUserMessage: (content, o) => sendUserMessage(s, content, o, opts),
    sendMessage: (message, o) => sendMessage(s, message, o, opts),
    appendEntry: (customType, data) => void log().append(data === undefined ? { type: "custom", customType } : { type: "custom", customType, data }),
    setSessionName: (name) => s.history.setName(name),
    getSessionName: () => log().name,
    setLabel: (targetId, label) => void log().append(label ? { type: "label", targetId, label } : { type: "label", targetId }),
    getActiveTools: () => s.tools.active().map((t) => t.name),
    getAllTools: () => s.tools.all().map(toolInfo),
    setActiveTools: (names) => s.tools.setActive(names),
    getCommands: () => commandInfos(s),
    sessionManager: s.sessionView,
    modelRegistry: registryView(s.models),
    getScopedModels: () => s.models.scoped.map((model) => ({ model })),
    registerProvider: (name, config) => registerProvider(s.models, name, config),
    unregisterProvider: (name) => s.models.registry.unregisterProvider(name),
    getSignal: () => s.signal(),
    mode: opts.mode ?? "rpc",
    compact: (o) => {
      s.compact(o?.customInstructions).then(
        (result) => o?.onComplete?.(result),
        (err: unknown) => o?.onError?.(err instanceof Error ? err : new Error(String(err))),
      );
    },
    getSystemPromptOptions: () => ({ cwd: s.cwd, selectedTools: s.tools.active().map((t) => t.name) }),
    navigateTree: (targetId, o) => s.history.navigateTree(targetId, o),
    reload: () => (s.reload ? s.reload() : Promise.reject(new Error("ctx.reload() is not supported by pith in this mode"))),
    setModel: async (model) => {
      try {
        await s.models.set(model.provider, model.id);
        return true;
      } catch {
        return false;
      }
    },
    getThinkingLevel: () => s.conversation.thinkingLevel,
    setThinkingLevel: (level) => s.models.setThinkingLevel(level),
    waitForIdle: () => s.waitForIdle(),
    newSession: (o) => newSession(s, o),
    fork: async (entryId, o) => (o?.position === "at" ? s.history.forkAt(entryId) : { cancelled: (await s.history.branch(entryId)).cancelled }),
    switchSession: (p) => s.history.switchTo(p),
  };
}

/** `ctx.newSession()`: the new session, then `setup` writes into it and the context is rebuilt from what it wrote. */
async function newSession(s: HostedSession, o: NewSessionOptions | undefined): Promise<{ cancelled: boolean }> {
  const result = await s.history.newSession(o?.parentSession);
  if (result.cancelled || !o?.setup) return result;
  await o.setup(setupManager(s));
  s.conversation.load();
  return result;
}

/** pi's SessionManager as `setup` sees it: the read-only view plus appends to the new session's file. */
function setupManager(s: HostedSession): SessionSetupManager {
  const log = () => s.conversation.log;
  return Object.assign(Object.create(s.sessionView) as ReadonlySessionManager, {
    appendMessage: (message: AgentMessage) => log().appendMessage(message).id,
    appendCustomEntry: (customType: string, data?: unknown) => log().append(data === undefined ? { type: "custom", customType } : { type: "custom", customType, data }).id,
    appendCustomMessageEntry: (customType: string, content: string | UserContent[], display: boolean, details?: unknown) =>
      log().append({ type: "custom_message", customType, content, display, ...(details !== undefined ? { details } : {}) }).id,
    appendSessionInfo: (name: string) => log().setName(name).id,
    appendLabelChange: (targetId: string, label: string | undefined) => log().append(label ? { type: "label", targetId, label } : { type: "label", targetId }).id,
  });
}

function toolInfo(t: Tool): ToolInfo {
  const source = t.source === "extension" ? "extension" : t.source === "mcp" ? "mcp" : t.source === "host" ? "rpc" : "builtin";
  return { name: t.name, description: t.description, parameters: t.parameters, sourceInfo: { path: `<${source}:${t.name}>`, source, scope: "temporary", origin: "top-level" } };
}

function commandInfos(s: HostedSession): SlashCommandInfo[] {
  const runner = s.extensions();
  return (runner?.commands() ?? []).map((c) => ({
    name: c.name,
    ...(c.description !== undefined ? { description: c.description } : {}),
    source: c.source,
    sourceInfo: { path: c.path, source: "local", scope: "temporary", origin: "top-level" },
  }));
}

/** `pi.registerProvider(name, config)`; pi's native provider objects run their own stream code, which pith cannot. */
function registerProvider(models: SessionModels, name: unknown, config: unknown): void {
  if (typeof name !== "string") {
    throw new Error("registerProvider(provider object): native pi-ai providers bring their own stream code, which pith does not run; use registerProvider(name, config) with an api pith speaks");
  }
  models.registry.registerProvider(name, config);
}

/** `ctx.modelRegistry` over the session's model registry. */
function registryView(models: SessionModels): ModelRegistryView {
  const r = models.registry;
  const providerOf = (m: Model | string) => (typeof m === "string" ? m : m.provider);
  return {
    getAll: () => r.all(),
    getAvailable: () => r.available(),
    find: (provider, id) => r.find(provider, id),
    hasConfiguredAuth: (m) => r.hasCredentials(providerOf(m)),
    getApiKeyForProvider: (provider) => r.getApiKey(provider),
    getApiKeyAndHeaders: async (model) => ({ ok: true, apiKey: await r.getApiKey(model.provider), ...(model.headers ? { headers: model.headers } : {}) }),
    getError: () => undefined,
    refresh: () => r.discover(),
  };
}

/**
 * pi's `sendUserMessage`: through the `input` handlers like any prompt (source "extension");
 * `/commands`, skills and templates only with `expandPromptTemplates`; while busy it is queued
 * (`deliverAs`, default steer).
 */
async function sendUserMessage(
  s: HostedSession,
  content: string | UserContent[],
  o: SendUserMessageOptions | undefined,
  opts: ExtensionBindings,
): Promise<void> {
  const text = contentText(content);
  const images = typeof content === "string" ? [] : content.filter((b) => b.type === "image");
  const handle = s.prompt(text, { images, streamingBehavior: o?.deliverAs ?? "steer", source: "extension", expandPromptTemplates: o?.expandPromptTemplates ?? false });
  await settle(handle, "extension_send_user", opts);
}

/**
 * pi's `sendMessage`: `nextTurn` waits for the next prompt; while busy it is steered (or a
 * follow-up); while idle `triggerTurn` starts a run with it, otherwise it is added and shown.
 */
async function sendMessage(s: HostedSession, input: CustomMessageInput, o: SendMessageOptions | undefined, opts: ExtensionBindings): Promise<void> {
  const message: CustomMessage = { role: "custom", ...input, timestamp: Date.now() };
  if (o?.deliverAs === "nextTurn") s.queues.addNextTurn(message);
  else if (s.isBusy()) {
    if (o?.deliverAs === "followUp") s.queues.followUp(message);
    else s.queues.steer(message);
  } else if (o?.triggerTurn) await settle(s.trigger(message), "extension_send", opts);
  else {
    s.conversation.add(message);
    // As in pi: a message added while idle is shown to the host at once.
    s.announce(message);
  }
}

/** A prompt an extension started: a failure is reported, never thrown at the extension. */
async function settle(handle: PromptHandle, command: "extension_send" | "extension_send_user", opts: ExtensionBindings): Promise<void> {
  handle.done.catch((err) => opts.onPromptError(command, (err as Error).message));
  try {
    await handle.accepted;
  } catch (err) {
    opts.onPromptError(command, (err as Error).message);
  }
}
