// Loads the extensions a command line asks for and attaches them to a session, for any mode.
import {
  loadExtensionPaths,
  loadExtensions,
  projectExtensionPaths,
  resolveCliFlags,
  type CliFlag,
  type ExtensionErrorInfo,
  type LoadedExtensions,
} from "../extensions/index.js";
import { createNoopUi } from "../extensions/ui.js";
import { convertToLlm, sessionWiring, type AgentSession, type ExtensionBindings } from "../session/index.js";
import { CliError, unknownOptionMessage, type ParsedArgs } from "./args.js";
import { projectLayerOf } from "./project-layer.js";
import { settingsExtensionPaths } from "./settings-extensions.js";
import type { SettingsLayer } from "./settings.js";

/**
 * Extensions loaded before the session to read their flags (never the project's: the folder's
 * trust is not settled yet); the first attach in that folder uses them.
 */
let early: { cwd: string; loaded: LoadedExtensions } | undefined;

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
  const fromSettings = () => (args.noExtensions ? [] : (projectLayerOf(session)?.extensionPaths() ?? []));
  const load = () => loadFor(args, fromSettings(), session.cwd, pithHome, sessionWiring(session).trust.trusted, onLoadError);
  const preloaded = early?.cwd === session.cwd ? early.loaded : undefined;
  early = undefined;
  const loaded = preloaded ? await withProject(preloaded, args, session, onLoadError) : await load();
  await sessionWiring(session).extensions.attach(loaded, bindings, load);
  if (o.settle === false) return;
  const runner = sessionWiring(session).extensions.current;
  await projectLayerOf(session)?.settle(runner ? (cwd) => runner.decideProjectTrust(cwd) : undefined);
}

/** The extensions loaded early, plus the project's when the folder is trusted (they share the runtime). */
async function withProject(loaded: LoadedExtensions, args: ParsedArgs, session: AgentSession, onError: (info: ExtensionErrorInfo) => void): Promise<LoadedExtensions> {
  if (args.noExtensions || !sessionWiring(session).trust.trusted) return loaded;
  const running = new Set(loaded.extensions.map((x) => x.path));
  const paths = projectExtensionPaths(session.cwd).filter((p) => !running.has(p));
  const more = await loadExtensionPaths(paths, onError, loaded.runtime);
  return { ...loaded, extensions: [...loaded.extensions, ...more.extensions] };
}

/** `fromSettings`: the settings' `extensions` lists, loaded before the command line's `-e`. */
function loadFor(args: ParsedArgs, fromSettings: string[], cwd: string, pithHome: string, project: boolean, onError: (info: ExtensionErrorInfo) => void): Promise<LoadedExtensions> {
  // pi's packages see pith's home as their agent folder and pith's context conversion.
  const services = { agentDir: pithHome, convertToLlm: (messages: Parameters<typeof convertToLlm>[0]) => convertToLlm(messages) };
  const cliFlags = args.extensionFlags ?? [];
  return loadExtensions({ cwd, pithHome, paths: [...fromSettings, ...(args.extensions ?? [])], discover: !args.noExtensions, project, onError, services, cliFlags });
}

/**
 * Options pith does not know may be flags the extensions declare (pi's registerFlag). With
 * such options on the command line the `-e`, user-level and global settings' extensions load
 * now, before the session: an option none of them declares is the usual usage error (exit 2). A boolean flag
 * gives a following argument back as a message. Without such options nothing loads here
 * (startup is unchanged).
 */
export async function checkExtensionFlags(
  args: ParsedArgs,
  global: SettingsLayer | undefined,
  cwd: string,
  pithHome: string,
  stderr: (message: string) => void,
): Promise<void> {
  const given = args.extensionFlags ?? [];
  if (given.length === 0) return;
  const fromSettings = args.noExtensions ? [] : settingsExtensionPaths(global, pithHome, cwd, false);
  const loaded = await loadFor(args, fromSettings, cwd, pithHome, false, (info) => stderr(errorLine(info)));
  const flags = loaded.flags ?? resolveCliFlags([], given);
  const argOf = (flag: CliFlag) => given.find((g) => g.name === flag.name && g.value === flag.value);
  if (flags.unknown.length > 0) throw new CliError(unknownOptionMessage(argOf(flags.unknown[0])?.arg ?? `--${flags.unknown[0].name}`));
  if (flags.errors.length > 0) throw new CliError(flags.errors.join("\n"));
  for (const back of [...flags.givenBack].reverse()) {
    const arg = argOf(back);
    if (arg?.value !== undefined) args.messages.splice(arg.messageIndex, 0, arg.value);
  }
  early = { cwd, loaded };
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
