// `pi.exec(command, args, opts)`: run a subprocess (no shell) in its own process group, killed
// with its group on abort and on timeout; what it leaves running in its group ends when it
// ends, and pith's exit kills the group (it is registered like every child of pith).
import { spawn } from "node:child_process";
import { registerProcessGroup, signalProcessGroup, unregisterProcessGroup } from "../tools/ops/process-groups.js";
import type { ExecOptions, ExecResult } from "./types.js";

function killGroup(pid: number | undefined): void {
  if (pid !== undefined) signalProcessGroup(pid, "SIGKILL");
}

export function execCommand(command: string, args: string[], cwd: string, options: ExecOptions = {}): Promise<ExecResult> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    let killed = false;
    const child = spawn(command, args, { cwd: options.cwd ?? cwd, detached: true, stdio: ["ignore", "pipe", "pipe"] });
    if (child.pid !== undefined) registerProcessGroup(child.pid);
    const kill = () => {
      killed = true;
      killGroup(child.pid);
    };
    const timer = options.timeout !== undefined && options.timeout > 0 ? setTimeout(kill, options.timeout) : undefined;
    if (options.signal?.aborted) kill();
    options.signal?.addEventListener("abort", kill, { once: true });
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const finish = (code: number) => {
      if (timer) clearTimeout(timer);
      options.signal?.removeEventListener("abort", kill);
      killGroup(child.pid);
      if (child.pid !== undefined) unregisterProcessGroup(child.pid);
      resolve({ stdout, stderr, code, killed });
    };
    child.on("error", (err) => {
      stderr += err.message;
      finish(127);
    });
    child.on("close", (code) => finish(code ?? 1));
  });
}
