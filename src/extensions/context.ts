// The `ctx` handed to handlers, tools and commands: built from the host's callbacks only.
import { PithError } from "../shared/errors.js";
import type { ExtensionHost } from "./host.js";
import type { ReadonlySessionManager } from "./session-view.js";
import type { UserContent } from "../shared/types.js";
import type { CustomMessageInput } from "./events.js";
import type {
  ExtensionCommandContext,
  ExtensionContext,
  ForkOptions,
  ModelRegistryView,
  NavigateTreeOptions,
  NewSessionOptions,
  ReplacedSessionContext,
  SendMessageOptions,
  SendUserMessageOptions,
  SwitchSessionOptions,
} from "./types.js";
import { createUiContext, type ExtensionUiContext } from "./ui-context.js";

export function createExtensionContext(host: ExtensionHost, ui: ExtensionUiContext, requestShutdown: () => void): ExtensionContext {
  return {
    ui,
    mode: host.mode ?? "rpc",
    hasUI: host.hasUI ?? true,
    cwd: host.cwd,
    sessionManager: host.sessionManager ?? emptySessionManager(host.cwd),
    modelRegistry: host.modelRegistry ?? emptyModelRegistry(),
    get model() {
      return host.getModel();
    },
    get scopedModels() {
      return host.getScopedModels?.() ?? [];
    },
    get thinkingLevel() {
      return host.getThinkingLevel?.();
    },
    get signal() {
      return host.getSignal?.();
    },
    isIdle: () => host.isIdle(),
    isProjectTrusted: () => host.isProjectTrusted?.() ?? false,
    compact: (options) => {
      if (host.compact) host.compact(options);
      else options?.onError?.(new PithError("unavailable", "ctx.compact() is not supported by pith in this mode"));
    },
    abort: () => host.abort(),
    hasPendingMessages: () => host.hasPendingMessages?.() ?? false,
    shutdown: requestShutdown,
    getContextUsage: () => host.getContextUsage?.(),
    getSystemPrompt: () => host.getSystemPrompt?.() ?? "",
  };
}

function unsupported(name: string): Promise<never> {
  return Promise.reject(new PithError("unavailable", `ctx.${name}() is not supported by pith in this mode`));
}

export function createCommandContext(host: ExtensionHost, base: ExtensionContext): ExtensionCommandContext {
  // pi's session replacements: the result, then `withSession` with a context for the session now open.
  const replaced = async (run: Promise<{ cancelled: boolean }>, withSession: ((c: ReplacedSessionContext) => unknown) | undefined) => {
    const result = await run;
    if (!result.cancelled && withSession) await withSession(replacedContext(host, ctx));
    return result;
  };
  const fork = (entryId: string, o?: ForkOptions) => (host.fork ? replaced(host.fork(entryId, o), o?.withSession) : unsupported("fork"));
  const ctx: ExtensionCommandContext = Object.create(base, {
    getSystemPromptOptions: { value: () => host.getSystemPromptOptions?.() ?? { cwd: host.cwd } },
    waitForIdle: { value: () => (host.waitForIdle ? host.waitForIdle() : Promise.resolve()) },
    newSession: { value: (o?: NewSessionOptions) => (host.newSession ? replaced(host.newSession(o), o?.withSession) : unsupported("newSession")) },
    fork: { value: fork },
    branch: { value: (entryId: string) => fork(entryId) },
    navigateTree: { value: (id: string, o?: NavigateTreeOptions) => (host.navigateTree ? host.navigateTree(id, o) : unsupported("navigateTree")) },
    switchSession: {
      value: (p: string, o?: SwitchSessionOptions) => (host.switchSession ? replaced(host.switchSession(p), o?.withSession) : unsupported("switchSession")),
    },
    reload: { value: () => (host.reload ? host.reload() : unsupported("reload")) },
  });
  return ctx;
}

/** `withSession`'s context: the command context, with sends that resolve once the message was taken. */
function replacedContext(host: ExtensionHost, ctx: ExtensionCommandContext): ReplacedSessionContext {
  return Object.create(ctx, {
    sendMessage: { value: async (message: CustomMessageInput, o?: SendMessageOptions) => void (await host.sendMessage(message, o)) },
    sendUserMessage: { value: async (content: string | UserContent[], o?: SendUserMessageOptions) => void (await host.sendUserMessage(content, o)) },
  });
}

/** A host without a session file (tests, bare runners): an empty, in-memory session. */
function emptySessionManager(cwd: string): ReadonlySessionManager {
  const none = () => undefined;
  return {
    getCwd: () => cwd,
    getSessionDir: () => "",
    getSessionId: () => "",
    getSessionFile: none,
    getLeafId: () => null,
    getLeafEntry: none,
    getEntry: none,
    getLabel: none,
    getBranch: () => [],
    buildContextEntries: () => [],
    buildSessionProjection: () => ({ entries: [], messages: [], thinkingLevel: "off", model: null }),
    getHeader: () => null,
    getEntries: () => [],
    getTree: () => [],
    getSessionName: none,
  };
}

function emptyModelRegistry(): ModelRegistryView {
  return {
    getAll: () => [],
    getAvailable: () => [],
    find: () => undefined,
    hasConfiguredAuth: () => false,
    getApiKeyForProvider: () => Promise.resolve(undefined),
    getApiKeyAndHeaders: () => Promise.resolve({ ok: false, error: "No model registry in this mode" }),
    getError: () => undefined,
    refresh: () => Promise.resolve(),
  };
}

export { createUiContext };
