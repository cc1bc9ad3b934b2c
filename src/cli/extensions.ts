// Loads the extensions a command line asks for and attaches them to a session, for any mode.
import { loadExtensions, resolveCliFlags, type CliFlag, type ExtensionErrorInfo, type LoadedExtensions } from "../extensions/index.js";
import { createNoopUi } from "../extensions/ui.js";
import { convertToLlm, type AgentSession, type ExtensionBindings } from "../session/index.js";
import { CliError, unknownOptionMessage, type ParsedArgs } from "./args.js";

/** Extensions loaded before the session to read their flags; the first attach in that folder uses them. */
let early: { cwd: string; loaded: LoadedExtensions } | undefined;

/**
 * Discovers and loads extensions (`-e`, PITH_HOME/extensions, .pith/extensions), then attaches
 * them to the session with the front door's bindings (which emits `session_start`). Load failures
 * are logged and skipped (engine.md §11.1), never fatal.
 */
export async function attachExtensions(args: ParsedArgs, session: AgentSession, pithHome: string, stderr: (message: string) => void, bindings: ExtensionBindings): Promise<void> {
  const paths = args.extensions ?? [];
  if (paths.length === 0 && args.noExtensions) return;
  const onLoadError = (info: ExtensionErrorInfo) => (info.event === "load" ? stderr(errorLine(info)) : bindings.onError(info));
  const load = () => loadFor(args, session.cwd, pithHome, onLoadError);
  const preloaded = early?.cwd === session.cwd ? early.loaded : undefined;
  early = undefined;
  await session.extensions.attach(preloaded ?? (await load()), bindings, load);
}

function loadFor(args: ParsedArgs, cwd: string, pithHome: string, onError: (info: ExtensionErrorInfo) => void): Promise<LoadedExtensions> {
  // pi's packages see pith's home as their agent folder and pith's context conversion.
  const services = { agentDir: pithHome, convertToLlm: (messages: Parameters<typeof convertToLlm>[0]) => convertToLlm(messages) };
  const cliFlags = args.extensionFlags ?? [];
  return loadExtensions({ cwd, pithHome, paths: args.extensions ?? [], discover: !args.noExtensions, onError, services, cliFlags });
}

/**
 * Options pith does not know may be flags the extensions declare (pi's registerFlag). With
 * such options on the command line the extensions load now, before the session: an option no
 * extension declares is the usual usage error (exit 2). A boolean flag gives a following
 * argument back as a message. Without such options nothing loads here (startup is unchanged).
 */
export async function checkExtensionFlags(args: ParsedArgs, cwd: string, pithHome: string, stderr: (message: string) => void): Promise<void> {
  const given = args.extensionFlags ?? [];
  if (given.length === 0) return;
  const loaded = await loadFor(args, cwd, pithHome, (info) => stderr(errorLine(info)));
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

/** Bindings for a session no one watches (print mode, subagents): no UI, every error on stderr. */
export function headlessBindings(stderr: (message: string) => void): ExtensionBindings {
  return { ui: createNoopUi(), hasUI: false, onError: (info) => stderr(errorLine(info)), onPromptError: (_command, message) => stderr(message) };
}

function errorLine(info: Pick<ExtensionErrorInfo, "extensionPath" | "error">): string {
  return `Extension error (${info.extensionPath}): ${info.error}`;
}
