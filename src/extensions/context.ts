// The `ctx` handed to handlers, tools and commands: built from the host's callbacks only.
import { PithError } from "../shared/errors.js";
import type { ExtensionHost } from "./host.js";
import type { ExtensionCommandContext, ExtensionContext } from "./types.js";
import { createUiContext, type ExtensionUiContext } from "./ui-context.js";

export function createExtensionContext(host: ExtensionHost, ui: ExtensionUiContext, requestShutdown: () => void): ExtensionContext {
  return {
    ui,
    hasUI: host.hasUI ?? true,
    cwd: host.cwd,
    sessionManager: host.sessionManager,
    modelRegistry: host.modelRegistry,
    get model() {
      return host.getModel();
    },
    isIdle: () => host.isIdle(),
    abort: () => host.abort(),
    hasPendingMessages: () => host.hasPendingMessages?.() ?? false,
    shutdown: requestShutdown,
    getContextUsage: () => host.getContextUsage?.(),
    getSystemPrompt: () => host.getSystemPrompt?.() ?? "",
    isProjectTrusted: () => host.isProjectTrusted?.() ?? false,
  };
}

function unsupported(name: string): Promise<never> {
  return Promise.reject(new PithError("unavailable", `ctx.${name}() is not supported by pith in this mode`));
}

export function createCommandContext(host: ExtensionHost, base: ExtensionContext): ExtensionCommandContext {
  const branch = (entryId: string) => (host.branch ? host.branch(entryId) : unsupported("fork"));
  const ctx: ExtensionCommandContext = Object.create(base, {
    waitForIdle: { value: () => (host.waitForIdle ? host.waitForIdle() : Promise.resolve()) },
    newSession: { value: (o?: { parentSession?: string }) => (host.newSession ? host.newSession(o) : unsupported("newSession")) },
    fork: { value: branch },
    branch: { value: branch },
    switchSession: { value: (p: string) => (host.switchSession ? host.switchSession(p) : unsupported("switchSession")) },
  });
  return ctx;
}

export { createUiContext };
