// Shell command execution in its own process group: streamed output, and the whole group
// killed on abort or timeout (SIGTERM, then SIGKILL after a grace period). What the command
// leaves running in its group (background jobs) ends with it: no process outlives the command
// that started it.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { endProcessGroup, registerProcessGroup, unregisterProcessGroup } from "./process-groups.js";

export interface ExecOptions {
  cwd: string;
  signal?: AbortSignal;
  /** Milliseconds; undefined or <= 0 means no timeout. */
  timeoutMs?: number;
  /** Every stdout/stderr chunk, in arrival order (the streams are merged). */
  onData: (chunk: Buffer) => void;
  /** Extra environment variables for this command. */
  env?: Record<string, string>;
}

export interface ExecResult {
  /** null when the process was killed by a signal. */
  exitCode: number | null;
  aborted: boolean;
  timedOut: boolean;
}

export interface ExecOps {
  exec(command: string, opts: ExecOptions): Promise<ExecResult>;
}

export interface NodeExecOptions {
  /** Shell binary; default `/bin/bash` when it exists, else `sh`. */
  shell?: string;
  /** Base environment; default: inherit the parent's. */
  env?: Record<string, string | undefined>;
  /** Delay between SIGTERM and SIGKILL. Default 500 ms (a group is gone within a second of its end). */
  killGraceMs?: number;
  /** After the shell exits, how long to wait for pipes held by background children. Default 200 ms. */
  drainMs?: number;
  /**
   * Rewrites the command line just before it is spawned (the sandbox sets this: the line runs
   * inside bubblewrap). Receives the line and the command's cwd; the process group, abort and
   * timeout handling stay the same.
   */
  wrapCommand?: (line: CommandLine, cwd: string) => CommandLine;
}

/** A program and its arguments. */
export interface CommandLine {
  file: string;
  args: string[];
}

/** Environment overrides that keep commands from waiting for a terminal. */
export const NONINTERACTIVE_ENV: Record<string, string> = {
  PAGER: "cat",
  GIT_PAGER: "cat",
  TERM: "dumb",
  NO_COLOR: "1",
  CI: "1",
  GIT_TERMINAL_PROMPT: "0",
  EDITOR: "true",
  DEBIAN_FRONTEND: "noninteractive",
  PIP_NO_INPUT: "1",
};

/** SIGTERM first, SIGKILL this much later: well inside the second a finished command's processes may outlive it. */
export const KILL_GRACE_MS = 500;

export function defaultShell(): string {
  return existsSync("/bin/bash") ? "/bin/bash" : "sh";
}

/** Runs commands with `<shell> -c`, one process group each. */
export function createNodeExecOps(options: NodeExecOptions = {}): ExecOps {
  const shell = options.shell ?? defaultShell();
  const grace = options.killGraceMs ?? KILL_GRACE_MS;
  const drain = options.drainMs ?? 200;
  return {
    exec: (command, opts) => runInGroup(shell, command, opts, { grace, drain, baseEnv: options.env, wrap: options.wrapCommand }),
  };
}

interface RunConfig {
  grace: number;
  drain: number;
  baseEnv?: Record<string, string | undefined>;
  wrap?: NodeExecOptions["wrapCommand"];
}

/** Without a base env the parent's is inherited, and extra variables go through `env(1)`. */
function commandLine(shell: string, command: string, base: RunConfig["baseEnv"], extra: Record<string, string> | undefined) {
  if (base) return { file: shell, args: ["-c", command], env: { ...base, ...extra } };
  if (!extra || Object.keys(extra).length === 0) return { file: shell, args: ["-c", command], env: undefined };
  const pairs = Object.entries(extra).map(([k, v]) => `${k}=${v}`);
  return { file: "env", args: [...pairs, shell, "-c", command], env: undefined };
}

function runInGroup(shell: string, command: string, opts: ExecOptions, cfg: RunConfig): Promise<ExecResult> {
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) return resolve({ exitCode: null, aborted: true, timedOut: false });
    const line = commandLine(shell, command, cfg.baseEnv, opts.env);
    const { file, args } = cfg.wrap ? cfg.wrap({ file: line.file, args: line.args }, opts.cwd) : line;
    const env = line.env;
    const child = spawn(file, args, { cwd: opts.cwd, detached: true, stdio: ["ignore", "pipe", "pipe"], env });
    const pid = child.pid;
    if (pid !== undefined) registerProcessGroup(pid);
    const state = { aborted: false, timedOut: false, exitCode: null as number | null, done: false };
    const timers: NodeJS.Timeout[] = [];
    const kill = () => {
      if (pid !== undefined) endProcessGroup(pid, cfg.grace);
    };
    const onAbort = () => {
      state.aborted = true;
      kill();
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    if (opts.timeoutMs && opts.timeoutMs > 0) {
      timers.push(setTimeout(() => ((state.timedOut = true), kill()), opts.timeoutMs));
    }
    const finish = () => {
      if (state.done) return;
      state.done = true;
      timers.forEach(clearTimeout);
      opts.signal?.removeEventListener("abort", onAbort);
      // background jobs of the command (still in its group) end with it
      if (pid !== undefined) endProcessGroup(pid, cfg.grace);
      resolve({ exitCode: state.exitCode, aborted: state.aborted, timedOut: state.timedOut });
    };
    child.stdout.on("data", opts.onData);
    child.stderr.on("data", opts.onData);
    child.on("error", (err) => {
      if (pid !== undefined) unregisterProcessGroup(pid);
      timers.forEach(clearTimeout);
      reject(err);
    });
    child.on("exit", (code) => {
      state.exitCode = code;
      // Background children may keep the pipes open: stop waiting for them after `drain`.
      timers.push(setTimeout(() => (child.stdout.destroy(), child.stderr.destroy(), finish()), cfg.drain));
    });
    child.on("close", finish);
  });
}
