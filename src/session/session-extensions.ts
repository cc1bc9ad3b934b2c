// The extensions attached to a session: the runner, created when the front door attaches the
// loaded modules with its UI, and what hosts ask of it (commands, shutdown requests, reload).
import { ExtensionRunner, type ExtensionCommandInfo, type ExtensionHost, type ExtensionRuntime, type LoadedExtensions } from "../extensions/index.js";
import type { ExtensionBindings } from "./extension-host.js";

/** Loads the session's extensions again from where they came (`ctx.reload()`). */
export type ExtensionReloader = () => Promise<LoadedExtensions>;

export class SessionExtensions {
  private runner: ExtensionRunner | undefined;
  /** The front door's bindings and the loaded modules' runtime, kept for extensions loaded later. */
  private bindings: ExtensionBindings | undefined;
  private loadedRuntime: ExtensionRuntime | undefined;
  private reloader: ExtensionReloader | undefined;

  /** `portFor` builds the session's ExtensionHost port for the front door's bindings. */
  constructor(private readonly portFor: (bindings: ExtensionBindings) => ExtensionHost) {}

  /** The runner once extensions are attached (collaborators read it on every use). */
  get current(): ExtensionRunner | undefined {
    return this.runner;
  }

  /** Attaches loaded extensions (none → nothing happens), then emits `session_start` (reason "startup"). */
  async attach(loaded: LoadedExtensions, bindings: ExtensionBindings, reloader?: ExtensionReloader): Promise<void> {
    this.reloader = reloader ?? this.reloader;
    this.bindings = bindings;
    this.loadedRuntime = loaded.runtime;
    if (loaded.extensions.length === 0 && !loaded.resources) return;
    this.runner = new ExtensionRunner(loaded, this.portFor(bindings), bindings.onError);
    await this.runner.emit({ type: "session_start", reason: "startup" });
    await this.runner.discoverResources("startup");
  }

  /**
   * `ctx.reload()`: `session_shutdown` (reason "reload") to the running extensions, then the
   * extensions loaded again and started with `session_start` (reason "reload").
   */
  async reload(): Promise<void> {
    if (!this.reloader || !this.bindings) throw new Error("ctx.reload() is not supported by pith in this mode");
    await this.runner?.emit({ type: "session_shutdown", reason: "reload" });
    const loaded = await this.reloader();
    this.loadedRuntime = loaded.runtime;
    this.runner = new ExtensionRunner(loaded, this.portFor(this.bindings), this.bindings.onError);
    await this.runner.emit({ type: "session_start", reason: "reload" });
    await this.runner.discoverResources("reload");
  }

  /**
   * The runtime that extensions loaded later must share (their event bus is the running ones'),
   * once a front door attached extensions; undefined before (none may be added then).
   */
  get runtime(): ExtensionRuntime | undefined {
    return this.loadedRuntime;
  }

  /**
   * Extensions loaded after `attach` into its runtime (a folder trusted while the session runs):
   * they join those running (after them) and get `session_start`.
   */
  async add(loaded: LoadedExtensions): Promise<void> {
    if (!this.bindings) throw new Error("extensions can be added only after the front door attached them");
    if (loaded.extensions.length === 0) return;
    if (this.runner) await this.runner.add(loaded.extensions);
    else await this.attach(loaded, this.bindings);
  }

  /** Slash commands the extensions registered and the packages' templates and skills (`get_commands`). */
  commands(): ExtensionCommandInfo[] {
    return this.runner?.commands() ?? [];
  }

  /** An extension called `ctx.shutdown()`. */
  get shutdownRequested(): boolean {
    return this.runner?.shutdownRequested ?? false;
  }

  /** Tells extensions the process is ending (`session_shutdown`, reason "quit"). */
  async shutdown(): Promise<void> {
    await this.runner?.emit({ type: "session_shutdown", reason: "quit" });
  }
}
