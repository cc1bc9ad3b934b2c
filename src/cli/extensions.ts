// Loads the extensions a command line asks for and attaches them to a session, for any mode.
import { loadExtensions, type ExtensionErrorInfo } from "../extensions/index.js";
import { createNoopUi } from "../extensions/ui.js";
import { convertToLlm, type AgentSession, type ExtensionBindings } from "../session/index.js";
import type { ParsedArgs } from "./args.js";

/**
 * Discovers and loads extensions (`-e`, PITH_HOME/extensions, .pith/extensions), then attaches
 * them to the session with the front door's bindings (which emits `session_start`). Load failures
 * are logged and skipped (engine.md §11.1), never fatal.
 */
export async function attachExtensions(args: ParsedArgs, session: AgentSession, pithHome: string, stderr: (message: string) => void, bindings: ExtensionBindings): Promise<void> {
  const paths = args.extensions ?? [];
  if (paths.length === 0 && args.noExtensions) return;
  const onLoadError = (info: ExtensionErrorInfo) => (info.event === "load" ? stderr(errorLine(info)) : bindings.onError(info));
  // pi's packages see pith's home as their agent folder and pith's context conversion.
  const services = { agentDir: pithHome, convertToLlm: (messages: Parameters<typeof convertToLlm>[0]) => convertToLlm(messages) };
  const load = () => loadExtensions({ cwd: session.cwd, pithHome, paths, discover: !args.noExtensions, onError: onLoadError, services });
  await session.extensions.attach(await load(), bindings, load);
}

/** Bindings for a session no one watches (print mode, subagents): no UI, every error on stderr. */
export function headlessBindings(stderr: (message: string) => void): ExtensionBindings {
  return { ui: createNoopUi(), hasUI: false, onError: (info) => stderr(errorLine(info)), onPromptError: (_command, message) => stderr(message) };
}

function errorLine(info: Pick<ExtensionErrorInfo, "extensionPath" | "error">): string {
  return `Extension error (${info.extensionPath}): ${info.error}`;
}
