// Running ripgrep: locating the binary, and streaming its stdout line by line in its own
// process group, stoppable once the caller has seen enough.
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { registerProcessGroup, signalProcessGroup, unregisterProcessGroup } from "../ops/process-groups.js";

/** Flags that make rg walk exactly like the built-in walker. */
export const RG_WALK_FLAGS = [
  "--no-config",
  "--hidden",
  "--no-require-git",
  "--no-ignore-parent",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "--glob",
  "!.git",
];

/** The first executable `name` on a PATH-style string, or null. (The CLI passes `process.env.PATH`.) */
export function findOnPath(name: string, pathEnv: string | undefined): string | null {
  for (const dir of (pathEnv ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" && (err as NodeJS.ErrnoException).code !== "EACCES") throw err;
    }
  }
  return null;
}

export interface RgRun {
  rgPath: string;
  args: string[];
  cwd: string;
  signal?: AbortSignal;
  /** Called per stdout line; return false to stop rg early. */
  onLine: (line: string) => boolean;
  /** rg's environment (the tools' filtered one); default: inherit pith's. */
  env?: Record<string, string>;
}

/** Runs rg; resolves when it ends or was stopped. Rejects on rg errors (exit 2 without output). */
export function runRipgrep(run: RgRun): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.rgPath, run.args, { cwd: run.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env: run.env });
    const pid = child.pid;
    if (pid !== undefined) registerProcessGroup(pid);
    let stopped = false;
    let pending = "";
    let stderr = "";
    const stop = () => {
      if (stopped) return;
      stopped = true;
      if (pid !== undefined) signalProcessGroup(pid, "SIGKILL");
    };
    run.signal?.addEventListener("abort", stop, { once: true });
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      if (stopped) return;
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) if (line && !run.onLine(line)) return stop();
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (c: string) => (stderr = (stderr + c).slice(-4000)));
    child.on("error", (err) => {
      if (pid !== undefined) unregisterProcessGroup(pid);
      reject(err);
    });
    child.on("close", (code) => {
      if (pid !== undefined) unregisterProcessGroup(pid);
      run.signal?.removeEventListener("abort", stop);
      if (!stopped && pending) run.onLine(pending);
      if (run.signal?.aborted) return reject(new Error("Operation aborted"));
      if (!stopped && code === 2 && stderr.trim()) return reject(new Error(stderr.trim()));
      resolve();
    });
  });
}
