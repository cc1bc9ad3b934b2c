// Loads the extensions a command line asks for and attaches them to a session, for any mode.
import { loadExtensions, type ExtensionErrorInfo } from "../extensions/index.js";
import type { AgentSession, ExtensionBindings } from "../session/index.js";
import type { ParsedArgs } from "./args.js";
import type { Environment } from "./compose.js";

/**
 * Discovers and loads extensions (`-e`, PITH_HOME/extensions, .pith/extensions), then attaches
 * them to the session with the front door's bindings (which emits `session_start`). Load failures
 * are logged and skipped (engine.md §11.1), never fatal.
 */
export async function attachExtensions(args: ParsedArgs, session: AgentSession, pithHome: string, e: Environment, bindings: ExtensionBindings): Promise<void> {
  const paths = args.extensions ?? [];
  if (paths.length === 0 && args.noExtensions) return;
  const log = (info: ExtensionErrorInfo) => e.log(`Extension error (${info.extensionPath}): ${info.error}`);
  const onLoadError = (info: ExtensionErrorInfo) => (info.event === "load" ? log(info) : bindings.onError(info));
  const loaded = await loadExtensions({ cwd: session.cwd, pithHome, paths, discover: !args.noExtensions, onError: onLoadError });
  await session.extensions.attach(loaded, bindings);
}
