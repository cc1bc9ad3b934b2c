// Loads the extensions a command line asks for and attaches them to a session, for any mode.
import { loadExtensionPaths, loadExtensions, projectExtensionPaths, type ExtensionErrorInfo } from "../extensions/index.js";
import { createNoopUi } from "../extensions/ui.js";
import { sessionWiring, type AgentSession, type ExtensionBindings } from "../session/index.js";
import type { ParsedArgs } from "./args.js";
import { projectLayerOf } from "./project-layer.js";

/**
 * Discovers and loads extensions (`-e`, PITH_HOME/extensions, and `.pith/extensions` when the
 * folder is trusted), then attaches them to the session with the front door's bindings (which
 * emits `session_start`). A module that fails to load is logged and skipped, never fatal.
 * `settle` (a top-level session): a folder nobody decided about is then offered to these
 * extensions' `project_trust` handlers, and an untrusted one gets its stderr notice.
 */
export async function attachExtensions(
  args: ParsedArgs,
  session: AgentSession,
  pithHome: string,
  stderr: (message: string) => void,
  bindings: ExtensionBindings,
  o: { settle?: boolean } = {},
): Promise<void> {
  const onLoadError = (info: ExtensionErrorInfo) => (info.event === "load" ? stderr(errorLine(info)) : bindings.onError(info));
  const loaded = await loadExtensions({
    cwd: session.cwd,
    pithHome,
    paths: args.extensions ?? [],
    discover: !args.noExtensions,
    project: sessionWiring(session).trust.trusted,
    onError: onLoadError,
  });
  await sessionWiring(session).extensions.attach(loaded, bindings);
  if (o.settle === false) return;
  const runner = sessionWiring(session).extensions.current;
  await projectLayerOf(session)?.settle(runner ? (cwd) => runner.decideProjectTrust(cwd) : undefined);
}

/**
 * The folder was trusted while the session runs: its `.pith/extensions` load into the running
 * extensions' runtime (those already loaded, by `-e`, are not loaded twice) and get `session_start`.
 */
export async function loadProjectExtensions(args: ParsedArgs, session: AgentSession, stderr: (message: string) => void): Promise<void> {
  const runtime = sessionWiring(session).extensions.runtime;
  if (args.noExtensions || !runtime) return;
  const running = new Set(sessionWiring(session).extensions.current?.extensions.map((x) => x.path) ?? []);
  const paths = projectExtensionPaths(session.cwd).filter((p) => !running.has(p));
  if (paths.length === 0) return;
  const onError = (info: ExtensionErrorInfo) => stderr(errorLine(info));
  await sessionWiring(session).extensions.add(await loadExtensionPaths(paths, onError, runtime));
}

/** Bindings for a session no one watches (print mode, subagents): no UI, every error on stderr. */
export function headlessBindings(stderr: (message: string) => void): ExtensionBindings {
  return { ui: createNoopUi(), hasUI: false, onError: (info) => stderr(errorLine(info)), onPromptError: (_command, message) => stderr(message) };
}

function errorLine(info: Pick<ExtensionErrorInfo, "extensionPath" | "error">): string {
  return `Extension error (${info.extensionPath}): ${info.error}`;
}
