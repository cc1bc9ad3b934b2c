// The narrow object an extension factory receives. Registration methods write into the
// extension's record; action methods go through the shared runtime to the host, which the
// runner binds after loading (calling them from inside the factory is an error, as in pi).
import { PithError, errorMessage } from "../shared/errors.js";
import { createEventBus } from "./event-bus.js";
import { execCommand } from "./exec.js";
import type { ExtensionHost } from "./host.js";
import type { PiModuleServices } from "./pi-modules/services.js";
import type { AnyToolDefinition, EventBus, ExtensionAPI, ExtensionErrorListener, FlagOptions, LoadedExtension, ServiceStatusContribution } from "./types.js";

export const NOT_INITIALIZED =
  "Extension runtime not initialized. Action methods cannot be called during extension loading.";

/** Shared by every extension of one load: the host arrives when the runner is created. */
export interface ExtensionRuntime {
  host: ExtensionHost | undefined;
  events: EventBus;
  onError: ExtensionErrorListener;
  /** `registerProvider` calls made while loading: applied when the runner binds the host. */
  pendingProviders: Array<{ name: unknown; config: unknown; extension: LoadedExtension }>;
  /** Values of extension flags given on the command line (the declared default otherwise). */
  flagValues: Map<string, boolean | string>;
  /** What pith's stand-ins for pi's packages got at the first load (extensions loaded later get the same). */
  services?: PiModuleServices;
}

export function createExtensionRuntime(onError: ExtensionErrorListener, flagValues?: ReadonlyMap<string, boolean | string>): ExtensionRuntime {
  return { host: undefined, events: createEventBus(onError), onError, pendingProviders: [], flagValues: new Map(flagValues) };
}

export function createLoadedExtension(path: string): LoadedExtension {
  return { path, handlers: new Map(), tools: new Map(), commands: new Map(), flags: new Map(), serviceStatuses: new Map() };
}

function hostOf(runtime: ExtensionRuntime): ExtensionHost {
  if (!runtime.host) throw new PithError("unavailable", NOT_INITIALIZED);
  return runtime.host;
}

/** The host method `name`, or a clear error when this host does not offer it. */
function need<K extends keyof ExtensionHost>(runtime: ExtensionRuntime, name: K): NonNullable<ExtensionHost[K]> {
  const host = hostOf(runtime);
  const fn = host[name];
  if (typeof fn !== "function") throw new PithError("unavailable", `pi.${String(name)}() is not supported by pith in this mode`);
  return (fn as (...args: unknown[]) => unknown).bind(host) as NonNullable<ExtensionHost[K]>;
}

/** Runs a host send and reports an async failure instead of leaving it unhandled. */
function reportAsync(runtime: ExtensionRuntime, extension: LoadedExtension, event: string, result: unknown): void {
  if (result instanceof Promise) {
    result.catch((err: unknown) => runtime.onError({ extensionPath: extension.path, event, error: errorMessage(err) }));
  }
}

function registrationMethods(extension: LoadedExtension, runtime: ExtensionRuntime) {
  const unsupported = (what: string) =>
    runtime.onError({ extensionPath: extension.path, event: what, error: `${what} is not supported by pith; ignored` });
  return {
    on(event: string, handler: (...args: any[]) => unknown): () => void {
      if (typeof handler !== "function") throw new PithError("invalid_request", `pi.on("${event}") needs a handler function`);
      const list = extension.handlers.get(event) ?? [];
      // Cast: a pi extension may register any event name; the runner calls each handler with that event's own shape.
      list.push(handler as never);
      extension.handlers.set(event, list);
      return () => {
        const current = extension.handlers.get(event);
        const at = current?.indexOf(handler as never) ?? -1;
        if (current && at >= 0) current.splice(at, 1);
      };
    },
    registerTool(tool: AnyToolDefinition): void {
      if (!tool || typeof tool.name !== "string" || tool.name.trim() === "") {
        throw new PithError("invalid_request", "registerTool needs a tool with a non-empty name");
      }
      if (typeof tool.execute !== "function") {
        throw new PithError("invalid_request", `Tool "${tool.name}" must provide an execute function`);
      }
      extension.tools.set(tool.name, tool);
    },
    registerCommand(name: string, options: { description?: string; handler: (...a: any[]) => unknown }): void {
      const clean = String(name).replace(/^\//, "").trim();
      if (!clean || /\s/.test(clean)) throw new PithError("invalid_request", `Invalid command name: "${name}"`);
      if (typeof options?.handler !== "function") {
        throw new PithError("invalid_request", `Command "${clean}" must provide a handler function`);
      }
      // Cast: the options object is the extension's own (its handler was checked above); pi passes it through as is.
      extension.commands.set(clean, options as never);
    },
    registerFlag(name: string, options: FlagOptions): void {
      if (typeof name !== "string" || !/^[A-Za-z0-9][\w-]*$/.test(name)) throw new PithError("invalid_request", `Invalid flag name: "${String(name)}"`);
      const type = options?.type;
      if (type !== "boolean" && type !== "string") throw new PithError("invalid_request", `Flag "${name}" needs type "boolean" or "string"`);
      if (options.default !== undefined && typeof options.default !== type) {
        throw new PithError("invalid_request", `Invalid default for flag "${name}": expected ${type}, got ${typeof options.default}`);
      }
      extension.flags.set(name, { ...options, name, extensionPath: extension.path });
    },
    /** The command line's value, else the declared default; undefined for a flag this extension did not declare (as pi). */
    getFlag(name: string): boolean | string | undefined {
      const flag = extension.flags.get(name);
      if (!flag) return undefined;
      return runtime.flagValues.has(name) ? runtime.flagValues.get(name) : flag.default;
    },
    // Terminal-only registrations: kept by nobody, since nothing is drawn or typed in pith.
    registerShortcut: () => {},
    registerMessageRenderer: () => {},
    registerEntryRenderer: () => {},
    registerMarkdownTransformer: () => {},
    registerProvider(name: unknown, config?: unknown): void {
      const host = runtime.host;
      if (host?.registerProvider) host.registerProvider(name, config);
      else if (host) unsupported("registerProvider");
      else runtime.pendingProviders.push({ name, config, extension });
    },
    unregisterProvider(name: string): void {
      runtime.pendingProviders = runtime.pendingProviders.filter((p) => p.name !== name);
      runtime.host?.unregisterProvider?.(name);
    },
    registerServiceStatus(contribution: ServiceStatusContribution): void {
      if (!contribution || typeof contribution.name !== "string" || contribution.name.trim() === "" || typeof contribution.check !== "function") {
        throw new PithError("invalid_request", "registerServiceStatus needs {name, check}");
      }
      extension.serviceStatuses.set(contribution.name, contribution);
    },
  };
}

export function createExtensionApi(extension: LoadedExtension, runtime: ExtensionRuntime): ExtensionAPI {
  const api = {
    ...registrationMethods(extension, runtime),
    sendMessage(message, options) {
      reportAsync(runtime, extension, "sendMessage", hostOf(runtime).sendMessage(message, options));
    },
    sendUserMessage(content, options) {
      reportAsync(runtime, extension, "sendUserMessage", hostOf(runtime).sendUserMessage(content, options));
    },
    appendEntry: (customType, data) => need(runtime, "appendEntry")(customType, data),
    setSessionName: (name) => need(runtime, "setSessionName")(name),
    getSessionName: () => hostOf(runtime).getSessionName?.(),
    setLabel: (entryId, label) => need(runtime, "setLabel")(entryId, label),
    exec(command, args, options = {}) {
      const host = hostOf(runtime);
      if (host.exec) return host.exec(command, args, options);
      return execCommand(command, args, host.cwd, options);
    },
    getActiveTools: () => hostOf(runtime).getActiveTools?.() ?? [],
    getAllTools: () => hostOf(runtime).getAllTools?.() ?? [],
    getCommands: () => hostOf(runtime).getCommands?.() ?? [],
    setActiveTools: (names) => need(runtime, "setActiveTools")(names),
    setModel: (model) => need(runtime, "setModel")(model),
    getThinkingLevel: () => hostOf(runtime).getThinkingLevel?.(),
    setThinkingLevel: (level) => need(runtime, "setThinkingLevel")(level),
    events: runtime.events,
  } satisfies Omit<ExtensionAPI, "on"> & { on: unknown };
  return api as ExtensionAPI;
}
