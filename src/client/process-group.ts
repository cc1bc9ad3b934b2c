// Spawning the agent in its own process group and ending that group (no orphans).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { RpcClientOptions } from "./types.js";
import { signalProcessGroup } from "../shared/process-group.js";

/** The command line the client starts: pith's CLI by default, or the given command verbatim. */
export function resolveCommand(opts: RpcClientOptions): { command: string; args: string[] } {
  if (opts.command) return { command: opts.command, args: [...(opts.args ?? [])] };
  const cli = opts.cliPath ?? fileURLToPath(new URL("./cli.js", import.meta.url));
  return { command: process.execPath, args: [cli, "--mode", "rpc", ...(opts.args ?? [])] };
}

/** Spawns detached (a new process group led by the child) so the whole group can be killed. */
export function spawnAgent(opts: RpcClientOptions): ChildProcessWithoutNullStreams {
  const { command, args } = resolveCommand(opts);
  return spawn(command, args, {
    cwd: opts.cwd,
    env: (opts.env ?? process.env) as NodeJS.ProcessEnv,
    stdio: ["pipe", "pipe", "pipe"],
    detached: true,
  });
}

/** Sends `signal` to the process group led by `pid`; false when the group no longer exists. */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals): boolean {
  return pid !== undefined && signalProcessGroup(pid, signal);
}
