// Runs the `git` program against the shadow repository with an environment pith fully controls:
// its own GIT_DIR, the project folder as GIT_WORK_TREE, a per-call GIT_INDEX_FILE, no global or
// system config (HOME points into the shadow folder), a fixed author, C locale. Nothing of the
// caller's environment leaks in, so no API key ever reaches git. Every run has a timeout and
// follows an optional AbortSignal; output is capped. git runs as the leader of its own process
// group, registered with pith's children, so the group ends with the run and with pith.
import { spawn } from "node:child_process";
import { errorMessage } from "../shared/errors.js";
import { endProcessGroup, registerProcessGroup } from "../shared/process-group-registry.js";
import { CheckpointError } from "./errors.js";

export interface GitContext {
  gitPath: string;
  /** The shadow repository (GIT_DIR). */
  gitDir: string;
  /** The project folder (GIT_WORK_TREE, and the working directory of every run). */
  workTree: string;
  /** HOME and XDG_CONFIG_HOME for git: a folder holding no config. */
  home: string;
  pathEnv: string;
  timeoutMs: number;
  /** git 2.37+: `update-index` writes all new blobs of one run into a single pack (bulk check-in). */
  bulkCheckin: boolean;
}

export interface GitRunOptions {
  /** GIT_INDEX_FILE for this run. */
  indexFile?: string;
  input?: string | Buffer;
  /** Extra environment (GIT_COMMITTER_DATE, GIT_LITERAL_PATHSPECS...). */
  env?: Record<string, string>;
  /** Stop reading (and end git) once this many stdout bytes arrived; `truncated` is then set. */
  maxStdout?: number;
  signal?: AbortSignal;
  /** Exit codes that count as success. Default [0]. */
  okCodes?: number[];
}

export interface GitRunResult {
  stdout: Buffer;
  stderr: string;
  code: number | null;
  truncated: boolean;
}

const STDERR_CAP = 64 * 1024;
const KILL_GRACE_MS = 500;

/** The fixed environment of every shadow-repository run (no inherited variable reaches git). */
export function gitEnv(ctx: GitContext, indexFile?: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: ctx.pathEnv,
    HOME: ctx.home,
    XDG_CONFIG_HOME: ctx.home,
    LANG: "C",
    LC_ALL: "C",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_ATTR_NOSYSTEM: "1",
    GIT_DIR: ctx.gitDir,
    GIT_WORK_TREE: ctx.workTree,
    GIT_TERMINAL_PROMPT: "0",
    GIT_OPTIONAL_LOCKS: "0",
    GIT_NO_REPLACE_OBJECTS: "1",
    GIT_AUTHOR_NAME: "pith",
    GIT_AUTHOR_EMAIL: "checkpoints@pith.invalid",
    GIT_COMMITTER_NAME: "pith",
    GIT_COMMITTER_EMAIL: "checkpoints@pith.invalid",
    // glibc: keep the heap instead of giving it back after every object's zlib buffers (brk
    // churn cost 0.5 ms per object here); other C libraries ignore these.
    MALLOC_TRIM_THRESHOLD_: "268435456",
    MALLOC_TOP_PAD_: "16777216",
  };
  if (indexFile) env.GIT_INDEX_FILE = indexFile;
  return env;
}

/** Runs `git args...`; rejects with a CheckpointError on spawn failure, timeout, abort or a bad exit code. */
export function runGit(ctx: GitContext, args: string[], opts: GitRunOptions = {}): Promise<GitRunResult> {
  const env = { ...gitEnv(ctx, opts.indexFile), ...opts.env };
  return spawnGit(ctx.gitPath, args, { ...opts, cwd: ctx.workTree, env, timeoutMs: ctx.timeoutMs });
}

interface SpawnOptions extends GitRunOptions {
  cwd: string;
  env: Record<string, string>;
  timeoutMs: number;
}

/** The process part of `runGit`, also used before a shadow repository exists (init, --version). */
export function spawnGit(gitPath: string, args: string[], opts: SpawnOptions): Promise<GitRunResult> {
  return new Promise((resolve, reject) => {
    const what = `git ${args.find((a, i) => !a.startsWith("-") && args[i - 1] !== "-c") ?? ""}`.trim();
    if (opts.signal?.aborted) return reject(new CheckpointError("aborted", `${what} was aborted`));
    const child = spawn(gitPath, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    const pid = child.pid;
    if (pid !== undefined) registerProcessGroup(pid);
    const out: Buffer[] = [];
    let outBytes = 0;
    let stderr = "";
    const state = { truncated: false, timedOut: false, aborted: false, settled: false };
    const stop = () => {
      if (pid !== undefined) endProcessGroup(pid, KILL_GRACE_MS);
    };
    const timer = setTimeout(() => ((state.timedOut = true), stop()), opts.timeoutMs);
    const onAbort = () => ((state.aborted = true), stop());
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    const settle = (fn: () => void) => {
      if (state.settled) return;
      state.settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) endProcessGroup(pid, KILL_GRACE_MS);
      fn();
    };
    child.stdout.on("data", (chunk: Buffer) => {
      if (state.truncated) return;
      out.push(chunk);
      outBytes += chunk.length;
      if (opts.maxStdout !== undefined && outBytes > opts.maxStdout) {
        state.truncated = true;
        child.stdout.destroy();
        stop();
      }
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < STDERR_CAP) stderr += chunk.toString("utf8");
    });
    // git may exit before reading all of stdin (EPIPE): its exit code tells what happened.
    child.stdin.on("error", () => undefined);
    child.stdin.end(opts.input ?? "");
    child.on("error", (err) => {
      const missing = (err as NodeJS.ErrnoException).code === "ENOENT";
      const message = missing ? `git is not available at ${gitPath}` : `could not run git: ${errorMessage(err)}`;
      settle(() => reject(new CheckpointError("unavailable", message, { cause: err })));
    });
    child.on("close", (code) => {
      settle(() => {
        const result: GitRunResult = { stdout: Buffer.concat(out), stderr: stderr.trim(), code, truncated: state.truncated };
        if (state.truncated) return resolve(result);
        if (state.aborted) return reject(new CheckpointError("aborted", `${what} was aborted`));
        if (state.timedOut) return reject(new CheckpointError("git_failed", `${what} timed out after ${opts.timeoutMs} ms`));
        if (code !== null && (opts.okCodes ?? [0]).includes(code)) return resolve(result);
        reject(new CheckpointError("git_failed", `${what} failed (exit ${code ?? "signal"}): ${result.stderr || "no message"}`));
      });
    });
  });
}

/** git's NUL-separated output as strings (the empty tail after the last NUL dropped). */
export function splitNul(buf: Buffer): string[] {
  const parts = buf.toString("utf8").split("\0");
  if (parts.length > 0 && parts[parts.length - 1] === "") parts.pop();
  return parts;
}

/** Paths joined for `--stdin -z`. */
export function joinNul(paths: string[]): string {
  return paths.map((p) => `${p}\0`).join("");
}
