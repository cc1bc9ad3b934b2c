// Command-line parsing: argv → ParsedArgs, pure (no env, no I/O). Errors are CliError with an exit code.
import { parseModelSelector } from "../shared/model-selector.js";
import type { ThinkingLevel } from "../shared/types.js";

export type Mode = "rpc" | "acp" | "json" | "print";

export class CliError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = "CliError";
    this.exitCode = exitCode;
  }
}

export interface ParsedArgs {
  mode?: Mode;
  print: boolean;
  provider?: string;
  model?: string;
  models?: string[];
  thinking?: ThinkingLevel;
  apiKey?: string;
  /** `--api-key-file`: read the key from this file (main.ts reads it into `apiKey`). */
  apiKeyFile?: string;
  noSession: boolean;
  session?: string;
  continue: boolean;
  sessionDir?: string;
  /** `--session-store <url>`: where sessions live (a postgres:// URL, or "jsonl" for session files). */
  sessionStore?: string;
  cwd?: string;
  tools?: string[];
  noTools: boolean;
  extensions: string[];
  noExtensions: boolean;
  systemPrompt?: string;
  appendSystemPrompt: string[];
  deltaStreaming: boolean;
  /** RPC: heartbeat frames every this many ms from the start (0 = off). */
  heartbeat?: number;
  /** Provider-side session id: the prompt-cache key of every model request (default: the session id). */
  providerSessionId?: string;
  /** Take a checkpoint of the cwd per user message (sets fileCheckpoints.enabled). */
  fileCheckpoints: boolean;
  /** Load no TTSR rule files. */
  noRules: boolean;
  /** Load no skills (pith loads none: accepted for the launchers that pass it). */
  noSkills: boolean;
  /** Never send `setTitle` UI requests, whatever PITH_RPC_EMIT_TITLE says. */
  noTitle: boolean;
  /** Display only (pith has no themes): accepted with a note on stderr. */
  noThemes: boolean;
  /** `--sandbox`: the bubblewrap sandbox of bash commands (overrides the `sandbox.mode` setting). */
  sandbox?: "off" | "workspace-write" | "read-only";
  /**
   * The project layer of the working folder (its settings, extensions, agents, rules, MCP servers):
   * true (`--trust-project`, pi's `--approve`/`-a`) loads it, false (`--no-approve`/`-na`) ignores
   * it, whatever was saved; absent: the saved decisions and settings decide. The last flag wins.
   */
  trustProject?: boolean;
  version: boolean;
  help: boolean;
  /** Print/json: a JSON Schema file; the last prompt must end with a result matching it (printed alone). */
  outputSchema?: string;
  /** Positional message arguments, in order. */
  messages: string[];
  /** `@path` positional arguments, without the `@`. */
  fileArgs: string[];
  /**
   * `--name` options pith does not know, in order: flags an extension may declare
   * (`pi.registerFlag`). They are checked once the extensions are loaded (see resolveExtensionFlags).
   */
  extensionFlags: ExtensionFlagArg[];
}

/** An option pith does not know, kept for the extensions to claim. */
export interface ExtensionFlagArg {
  /** Without the leading `--`. */
  name: string;
  /** `--name=value`, or the next argument when it does not look like an option or `@file`. */
  value?: string;
  /** The value came from the next argument (a boolean flag gives it back as a message). */
  separate: boolean;
  /** Where that message goes back among `messages`. */
  messageIndex: number;
  /** The argument as written (error messages). */
  arg: string;
}

const MODES: readonly Mode[] = ["rpc", "acp", "json", "print"];
const THINKING: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh"];
const SANDBOX = ["off", "workspace-write", "read-only"] as const;

type Flag = (args: ParsedArgs, take: () => string) => void;

const list = (value: string) => value.split(",").map((s) => s.trim()).filter(Boolean);

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`Invalid value for ${flag}: "${value}" (expected one of ${allowed.join(", ")})`);
}

/** `--heartbeat <ms>`: 0 (off) or a whole number of milliseconds from 100 to 3600000. */
function heartbeatMs(value: string): number {
  const ms = Number(value);
  if (value.trim() !== "" && Number.isInteger(ms) && (ms === 0 || (ms >= 100 && ms <= 3_600_000))) return ms;
  throw new CliError(`Invalid value for --heartbeat: "${value}" (expected 0 or a whole number of milliseconds from 100 to 3600000)`);
}

const FLAGS: Record<string, Flag> = {
  "--mode": (a, take) => (a.mode = oneOf("--mode", take(), MODES)),
  "--print": (a) => (a.print = true),
  "--provider": (a, take) => (a.provider = take()),
  "--model": (a, take) => (a.model = take()),
  "--models": (a, take) => (a.models = [...(a.models ?? []), ...list(take())]),
  "--thinking": (a, take) => (a.thinking = oneOf("--thinking", take(), THINKING)),
  "--api-key": (a, take) => (a.apiKey = take()),
  "--api-key-file": (a, take) => (a.apiKeyFile = take()),
  "--no-session": (a) => (a.noSession = true),
  "--session": (a, take) => (a.session = take()),
  "--continue": (a) => (a.continue = true),
  "--session-dir": (a, take) => (a.sessionDir = take()),
  "--session-store": (a, take) => (a.sessionStore = take()),
  "--cwd": (a, take) => (a.cwd = take()),
  "--tools": (a, take) => (a.tools = list(take())),
  "--output-schema": (a, take) => (a.outputSchema = take()),
  "--no-tools": (a) => (a.noTools = true),
  "--extension": (a, take) => a.extensions.push(take()),
  "--no-extensions": (a) => (a.noExtensions = true),
  "--system-prompt": (a, take) => (a.systemPrompt = take()),
  "--append-system-prompt": (a, take) => a.appendSystemPrompt.push(take()),
  "--delta-streaming": (a) => (a.deltaStreaming = true),
  "--heartbeat": (a, take) => (a.heartbeat = heartbeatMs(take())),
  "--sandbox": (a, take) => (a.sandbox = oneOf("--sandbox", take(), SANDBOX)),
  "--trust-project": (a) => (a.trustProject = true),
  // pi's names for the same decision (pi 0.8x project trust)
  "--approve": (a) => (a.trustProject = true),
  "--no-approve": (a) => (a.trustProject = false),
  // Flags the reference's and pi's RPC launchers pass (README, "Launcher flags").
  "--provider-session-id": (a, take) => (a.providerSessionId = take()),
  "--no-rules": (a) => (a.noRules = true),
  "--file-checkpoints": (a) => (a.fileCheckpoints = true),
  "--no-skills": (a) => (a.noSkills = true),
  "--no-title": (a) => (a.noTitle = true),
  "--no-themes": (a) => (a.noThemes = true),
  "--version": (a) => (a.version = true),
  "--help": (a) => (a.help = true),
};
const ALIASES: Record<string, string> = {
  "-p": "--print",
  "-c": "--continue",
  "-e": "--extension",
  "-h": "--help",
  "-v": "--version",
  "-a": "--approve",
  "-na": "--no-approve",
};

function emptyArgs(): ParsedArgs {
  return {
    print: false,
    noSession: false,
    continue: false,
    noTools: false,
    extensions: [],
    noExtensions: false,
    appendSystemPrompt: [],
    deltaStreaming: false,
    noRules: false,
    fileCheckpoints: false,
    noSkills: false,
    noTitle: false,
    noThemes: false,
    version: false,
    help: false,
    messages: [],
    fileArgs: [],
    extensionFlags: [],
  };
}

function positional(args: ParsedArgs, value: string): void {
  if (value.startsWith("@") && value.length > 1) args.fileArgs.push(value.slice(1));
  else args.messages.push(value);
}

/** Parses argv (without node and script). Throws CliError (exit 2) on any usage error. */
export function parseArgs(argv: string[]): ParsedArgs {
  const args = emptyArgs();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      for (const rest of argv.slice(i + 1)) positional(args, rest);
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positional(args, arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const name = ALIASES[eq === -1 ? arg : arg.slice(0, eq)] ?? (eq === -1 ? arg : arg.slice(0, eq));
    const flag = FLAGS[name];
    if (!flag && name.startsWith("--") && name.length > 2) {
      i = keepExtensionFlag(args, argv, i, eq);
      continue;
    }
    if (!flag) throw new CliError(unknownOptionMessage(arg));
    let used = false;
    const take = (): string => {
      used = true;
      if (eq !== -1) return arg.slice(eq + 1);
      const value = argv[i + 1];
      if (value === undefined || (value.startsWith("-") && value !== "-" && !/^-\d/.test(value))) {
        throw new CliError(`Option ${name} requires a value`);
      }
      i++;
      return value;
    };
    flag(args, take);
    if (eq !== -1 && !used) throw new CliError(`Option ${name} does not take a value`);
  }
  splitModel(args);
  if (args.apiKey !== undefined && args.apiKeyFile !== undefined) throw new CliError("--api-key and --api-key-file exclude each other");
  return args;
}

export function unknownOptionMessage(arg: string): string {
  return `Unknown option: ${arg} (see pith --help)`;
}

/**
 * An unknown `--name` option (pi's rule): `--name=value`, or `--name value` when the next
 * argument does not start with `-` or `@`, or `--name` alone. Returns the index of the last
 * argument it used.
 */
function keepExtensionFlag(args: ParsedArgs, argv: string[], i: number, eq: number): number {
  const arg = argv[i];
  const base = { arg, messageIndex: args.messages.length };
  if (eq !== -1) {
    args.extensionFlags.push({ ...base, name: arg.slice(2, eq), value: arg.slice(eq + 1), separate: false });
    return i;
  }
  const next = argv[i + 1];
  if (next !== undefined && !next.startsWith("-") && !next.startsWith("@")) {
    args.extensionFlags.push({ ...base, name: arg.slice(2), value: next, separate: true });
    return i + 1;
  }
  args.extensionFlags.push({ ...base, name: arg.slice(2), separate: false });
  return i;
}

/** `--model provider/id` without `--provider` names both. */
function splitModel(args: ParsedArgs): void {
  if (!args.model || args.provider) return;
  const { provider, id } = parseModelSelector(args.model);
  if (provider === undefined || id === "") return;
  args.provider = provider;
  args.model = id;
}

/**
 * The mode to run: `--mode` wins; `-p` or a positional message means print; piped stdin means print.
 * With none of these there is nothing to do (pith has no interactive UI): CliError, exit 2.
 */
export function resolveMode(args: ParsedArgs, io: { stdinIsTTY: boolean }): Mode {
  if (args.mode) {
    if (args.print && (args.mode === "rpc" || args.mode === "acp")) throw new CliError(`--print cannot be combined with --mode ${args.mode}`);
    return args.mode;
  }
  if (args.print || args.messages.length > 0 || args.fileArgs.length > 0 || !io.stdinIsTTY) return "print";
  throw new CliError("Nothing to do: pass --mode rpc, -p <message>, or pipe a prompt on stdin (see pith --help)");
}

/** One line for stderr per accepted flag that changes nothing here (display-only flags of other agents). */
export function displayOnlyNotes(args: ParsedArgs): string[] {
  return args.noThemes ? ["Note: --no-themes has no effect (pith has no themes)"] : [];
}

/** RPC mode refuses `@file` arguments: main prints "Error: <message>", exit 1. */
export function rejectFileArgsInRpc(args: ParsedArgs): void {
  if (args.fileArgs.length > 0) throw new CliError("@file arguments are not supported in RPC mode", 1);
}

/** What stderr shows for rejectFileArgsInRpc (main prefixes "Error: "). */
export const FILE_ARGS_IN_RPC_ERROR = "Error: @file arguments are not supported in RPC mode";

export const HELP_TEXT = `pith: a coding agent made to be embedded

Usage:
  pith --mode rpc [options]          drive pith over JSONL on stdin/stdout
  pith --mode acp [options]          an Agent Client Protocol agent on stdin/stdout (editors)
  pith -p [options] <message...>     run one prompt, print the answer
  echo "prompt" | pith [options]     same, prompt from stdin
  pith --mode json [options] <msg>   run one prompt, print every event as JSON lines
  pith sessions import <folder>      JSONL session files into the session database (--session-store)
  pith sessions export <dir>         the session database's sessions into JSONL files under <dir>

Modes:
  --mode <rpc|acp|json|print>        output mode (default: print when -p, a message or piped stdin)
  -p, --print                        print mode: run the prompt, print the final text, exit
  --output-schema <file>             print/json: the answer must match this JSON Schema; print prints only the JSON

Model:
  --provider <name>                  provider (anthropic, openai, google, openrouter, ...)
  --model <id|provider/id>           model id; "provider/id" also sets the provider
  --models <a,b,...>                 model scope for cycle_model (ids or provider/id)
  --thinking <level>                 off, minimal, low, medium, high, xhigh
  --api-key <key>                    API key for the selected provider (overrides env vars; hidden from ps)
  --api-key-file <path>              read that key from a file instead (preferred: never on a command line)

Session:
  --no-session                       keep the session in memory only
  --session <path|id>                open a session file (path, or id in the session dir)
  -c, --continue                     continue the most recent session for this directory
  --session-dir <dir>                where session files live
  --session-store <url>              keep sessions in PostgreSQL (postgres://...; "jsonl": session files)
  --cwd <dir>                        working directory (default: current directory)

Tools, extensions, prompt:
  --tools <a,b,...>                  only these built-in tools
  --no-tools                         no built-in tools
  -e, --extension <path>             load an extension (repeatable)
  --no-extensions                    do not discover extensions (explicit -e still load)
  --system-prompt <text|file>        replace the system prompt
  --append-system-prompt <text|file> append to the system prompt (repeatable)
  --delta-streaming                  RPC: stream every delta as its own message_update (pith extra)
  --heartbeat <ms>                   RPC: a heartbeat frame every <ms> (0 = off; set_heartbeat changes it)
  --sandbox <off|workspace-write|read-only>
                                     run bash commands under bubblewrap (default: setting sandbox.mode, off)
  --trust-project, -a, --approve     trust the working folder: load its .pith/ settings, extensions,
                                     agents, rules and .mcp.json (untrusted folders' are ignored)
  -na, --no-approve                  do not trust the working folder, whatever was saved
  --provider-session-id <id>         provider-side session id: the prompt-cache key (default: session id)
  --no-rules                         load no TTSR rule files
  --file-checkpoints                 checkpoint the cwd before each user message's tools run
                                     (get_checkpoints, diff_checkpoint, restore_checkpoint; needs git)
  --no-skills                        load no skills (pith loads none; accepted for launchers)
  --no-title                         never send setTitle UI requests
  --no-themes                        accepted for pi launchers; no effect (a note on stderr)

Other:
  @<file>                            include a file in the prompt (not in RPC mode)
  -h, --help                         show this help
  -v, --version                      print the version

Environment:
  PITH_HOME                          data directory (default ~/.pith): settings.json, models.json,
                                     sessions/, extensions/, trust.json; project settings:
                                     .pith/settings.json (trusted folders only)
  PITH_TRUST_PROJECT                 1/true/yes/on: same as --trust-project; 0/false/no/off: --no-approve
  ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY,
  XAI_API_KEY, MISTRAL_API_KEY, ...  provider API keys
  PITH_SESSION_STORE                 like --session-store (the flag wins; then this; then setting sessionStore)
  PITH_CACHE_RETENTION               prompt caching: none | short (default, ~5 min) | long (~1 h);
                                     wins over the cacheRetention setting
  PITH_RPC_EMIT_TITLE, PI_RPC_EMIT_TITLE
                                     1/true/yes/on: send setTitle UI requests in RPC mode
`;
