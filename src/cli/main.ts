// pith's entry point: argv and environment in, a mode out. The only place that reads
// process.env and argv.
import { releaseAllLocks } from "../session/index.js";
import { killAllProcessGroups } from "../tools/ops/process-groups.js";
import { errorMessage } from "../shared/errors.js";
import { CliError, HELP_TEXT, displayOnlyNotes, parseArgs, rejectFileArgsInRpc, resolveMode, type Mode, type ParsedArgs } from "./args.js";
import { SERVE_HELP, splitServeArgs, type ServeFlags } from "./serve-args.js";
import { applyRpcOverrides, readSettingsLayer, settingsPaths } from "./settings.js";
import type { SettingsSource } from "./project-layer.js";
import { pithHomeOf, type Environment } from "./compose.js";
import { removeLeftoversSync } from "./exit-cleanup.js";
import { readApiKeyFile } from "./api-key-file.js";
import { hideSecretsFromProc } from "./hide-proc-secrets.js";
import { checkExtensionFlags } from "./extensions.js";
import { VERSION, runRpcMode } from "./modes/rpc.js";
import { runPrintMode } from "./modes/print.js";
import path from "node:path";

async function main(argv: string[]): Promise<number> {
  const log = (m: string) => process.stderr.write(m.endsWith("\n") ? m : m + "\n");
  // `--api-key`'s value leaves the process's command line (ps, /proc/<pid>/cmdline) first thing.
  // ... and so does `--session-store`'s, a database URL that may hold a password.
  const masked = hideSecretsFromProc(process.env, [], ["--api-key", "--session-store"]);
  if (masked) log(`pith: could not hide --api-key from /proc/${process.pid}/cmdline (${masked}); processes of this user can read it there`);
  const env: Environment = { env: process.env, cwd: process.cwd(), log, hideSecrets: (names) => hideSecrets(names, log) };
  if (argv[0] === "sessions") {
    // loaded only here: the session database's code stays out of every mode's startup
    const { runSessionsCommand } = await import("./sessions-command.js");
    return runSessionsCommand(argv.slice(1), env, (line) => process.stdout.write(line + "\n"));
  }
  let args;
  // `pith serve ...`: its own flags first, the session flags as every mode has them
  let serve: ReturnType<typeof splitServeArgs> | undefined;
  try {
    if (argv[0] === "serve") serve = splitServeArgs(argv.slice(1));
    args = parseArgs(serve ? serve.rest : argv);
    if (args.apiKeyFile !== undefined) args.apiKey = readApiKeyFile(args.apiKeyFile, env.cwd);
  } catch (err) {
    return usageFailure(err, "");
  }
  if (args.help) {
    process.stdout.write(HELP_TEXT + SERVE_HELP);
    return 0;
  }
  if (args.version) {
    process.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const pithHome = pithHomeOf(env.env);
  // The global settings are read once; each session adds its folder's project settings when that
  // folder is trusted (project-layer.ts).
  const global = readSettingsLayer("global", settingsPaths(pithHome, env.cwd).globalPath, env.log);
  try {
    // Options pith does not know may be extension flags: known only once the extensions are loaded.
    await checkExtensionFlags(args, global, args.cwd ? path.resolve(env.cwd, args.cwd) : env.cwd, pithHome, env.log);
  } catch (err) {
    return usageFailure(err, "");
  }
  let mode: Mode | "serve";
  try {
    mode = serve ? "serve" : resolveMode(args, { stdinIsTTY: process.stdin.isTTY === true });
    if (mode === "rpc" || mode === "acp") rejectFileArgsInRpc(args);
  } catch (err) {
    return usageFailure(err, "Error: ");
  }
  for (const note of displayOnlyNotes(args)) env.log(note);
  const rpcLike = mode === "rpc" || mode === "acp" || mode === "serve";
  const settings: SettingsSource = {
    global,
    finish: rpcLike ? applyRpcOverrides : (s) => s,
  };
  if (mode === "rpc") return runRpcMode(args, settings, env);
  if (mode === "serve") return runServe(args, serve!.flags, settings, env);
  if (mode === "acp") {
    // loaded only here: the ACP SDK stays out of the other modes' startup
    const { runAcpMode } = await import("./modes/acp.js");
    return runAcpMode(args, settings, env);
  }
  return runPrintMode(args, settings, env, mode);
}

/** A usage error on stderr (with `prefix`) and its exit code; anything else is rethrown. */
function usageFailure(err: unknown, prefix: string): number {
  if (!(err instanceof CliError)) throw err;
  process.stderr.write(`${prefix}${err.message}\n`);
  return err.exitCode;
}

/** `pith serve`: loaded only here, so the WebSocket server stays out of the other modes' startup. */
async function runServe(args: ParsedArgs, flags: ServeFlags, settings: SettingsSource, env: Environment): Promise<number> {
  const { runServeMode } = await import("./modes/serve.js");
  try {
    return await runServeMode(args, flags, settings, env);
  } catch (err) {
    return usageFailure(err, "Error: ");
  }
}

/** Credentials leave pith's /proc entries once; a failure is said once (children could read them there). */
let secretsHidden = false;
function hideSecrets(names: Iterable<string>, log: (m: string) => void): void {
  if (secretsHidden) return;
  secretsHidden = true;
  const problem = hideSecretsFromProc(process.env, names, []);
  if (problem) log(`pith: could not hide credentials from /proc/${process.pid}/environ (${problem}); processes of this user can read them there`);
}

// A bug must not take the host's agent down: report it on stderr and keep serving.
process.on("unhandledRejection", (reason) => {
  process.stderr.write(`[Unhandled Rejection] ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`);
});
process.on("uncaughtException", (err) => {
  process.stderr.write(`[Uncaught Exception] ${err.stack ?? err.message}\n`);
});

process.on("exit", () => {
  killAllProcessGroups();
  releaseAllLocks();
  removeLeftoversSync();
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
    // Let stdout drain, then leave even if a stray handle (a timer, a child) is still open.
    setTimeout(() => process.exit(code), 50).unref();
  },
  (err) => {
    process.stderr.write(`Error: ${errorMessage(err)}\n`);
    process.exit(1);
  },
);
