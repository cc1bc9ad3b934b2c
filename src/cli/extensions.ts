// Loads the extensions a command line asks for and attaches them to a session, for any mode.
import { loadExtensions } from "../extensions/loader.js";
import { ExtensionRunner } from "../extensions/runner.js";
import type { ExtensionErrorInfo } from "../extensions/types.js";
import type { ExtensionUi } from "../extensions/ui.js";
import type { AgentSession } from "../session/agent-session.js";
import { createExtensionHost, type ExtensionHostOptions } from "../session/extension-host.js";
import type { ParsedArgs } from "./args.js";
import type { Environment } from "./compose.js";

export interface AttachOptions {
  ui: ExtensionUi;
  hasUI: boolean;
  /** Errors raised after loading (handlers, the shared event bus). */
  onError(info: ExtensionErrorInfo): void;
  onPromptError: ExtensionHostOptions["onPromptError"];
}

/**
 * Discovers and loads extensions (`-e`, PITH_HOME/extensions, .pith/extensions), then emits
 * `session_start`. Load failures are logged and skipped (engine.md §11.1), never fatal.
 */
export async function attachExtensions(args: ParsedArgs, session: AgentSession, pithHome: string, e: Environment, o: AttachOptions): Promise<void> {
  const paths = args.extensions ?? [];
  if (paths.length === 0 && args.noExtensions) return;
  const log = (info: ExtensionErrorInfo) => e.log(`Extension error (${info.extensionPath}): ${info.error}`);
  const onLoadError = (info: ExtensionErrorInfo) => (info.event === "load" ? log(info) : o.onError(info));
  const loaded = await loadExtensions({ cwd: session.deps.cwd, pithHome, paths, discover: !args.noExtensions, onError: onLoadError });
  if (loaded.extensions.length === 0) return;
  const host = createExtensionHost(session, { ui: o.ui, hasUI: o.hasUI, onPromptError: o.onPromptError });
  session.deps.extensions = new ExtensionRunner(loaded, host, o.onError);
  await session.deps.extensions.emit({ type: "session_start" });
}
