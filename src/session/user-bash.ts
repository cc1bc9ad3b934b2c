// The host's own shell commands (RPC `bash` / `abort_bash`): run beside
// the agent in the session cwd, in their own process group, recorded as `bashExecution`.
import { existsSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { OutputCollector } from "../tools/bash/output-collector.js";
import { createNodeExecOps, NONINTERACTIVE_ENV, type ExecOps } from "../tools/ops/exec-ops.js";
import { PithError } from "../shared/errors.js";
import type { Static } from "typebox";
import type { BashOperations, ExtensionRunner } from "../extensions/index.js";
import type { BashResultSchema } from "../protocol/index.js";
import type { BashExecutionMessage } from "../shared/types.js";
import type { SessionSettings } from "./settings.js";

export const USER_BASH_TIMEOUT_MS = 300_000;

/** The `bash` command's answer: the wire's BashResult (pith never sets `artifactId`). */
export type BashResult = Omit<Static<typeof BashResultSchema>, "artifactId">;

export interface UserBashOptions {
  cwd: string;
  settings: SessionSettings;
  /** Environment of the commands (credentials filtered out); default: pith's own. */
  childEnv?: Record<string, string>;
  /** Where full outputs are spilled (a private folder of the session). */
  tempDir: string;
  /** Where the shell state lives (inside a sandbox it must be writable there); default `tempDir`. */
  stateDir?: string;
  runner(): ExtensionRunner | undefined;
  /** Each command's record, for the conversation. */
  record(message: BashExecutionMessage): void;
  /** The sandbox's wrapper: each command runs inside it (see `NodeExecOptions.wrapCommand`). */
  wrapCommand?: (line: { file: string; args: string[] }, cwd: string) => { file: string; args: string[] };
}

export class UserBash {
  /**
   * The admission of commands accepted since the last `abort()`: aborting it ends the command
   * that runs and cancels every one accepted before the abort that has not started yet.
   */
  private admission = new AbortController();
  private active: AbortSignal | undefined;
  private readonly exec: ExecOps;
  private readonly shell: ShellState;

  constructor(private readonly o: UserBashOptions) {
    this.exec = createNodeExecOps({ shell: o.settings.shellPath, env: o.childEnv, wrapCommand: o.wrapCommand });
    this.shell = new ShellState(o.cwd);
  }

  get running(): boolean {
    return this.active !== undefined;
  }

  /**
   * Accepts a command now that runs later (a front door queues it behind other commands): an
   * `abort()` in between cancels it, so it never starts. Pass the signal to `run`.
   */
  admit(): AbortSignal {
    return this.admission.signal;
  }

  /** `abort_bash`: kills the running command's process group and cancels the commands admitted before; a no-op when idle. */
  abort(): void {
    this.admission.abort();
    this.admission = new AbortController();
  }

  /** Runs `command`; `admitted` (from `admit()`) when it was accepted earlier, else it is accepted now. */
  async run(command: unknown, admitted: AbortSignal = this.admit()): Promise<BashResult> {
    if (typeof command !== "string" || command.trim() === "") {
      throw new PithError("invalid_request", 'Invalid "command": expected a non-empty string');
    }
    if (this.active) throw new PithError("busy", "A bash command is already running. Use abort_bash to stop it.");
    if (admitted.aborted) return notStarted();
    this.active = admitted;
    try {
      const ext = this.o.runner();
      let operations: ExecOps | undefined;
      if (ext?.hasHandlers("user_bash")) {
        const replaced = await ext.emit({ type: "user_bash", command, excludeFromContext: false, cwd: this.shell.cwd });
        if (replaced?.result) return this.record(command, fromExtension(replaced.result as Record<string, unknown>));
        if (replaced?.operations) operations = extensionOperations(replaced.operations, this.o.childEnv);
      }
      if (admitted.aborted) return notStarted();
      return this.record(command, await this.execute(command, admitted, operations));
    } finally {
      this.active = undefined;
    }
  }

  /**
   * Runs the command in pith's persistent shell, or (an extension's `operations`, e.g. a remote
   * machine) as it was typed, in the shell's working directory.
   */
  private async execute(command: string, signal: AbortSignal, operations?: ExecOps): Promise<BashResult> {
    const tempDir = this.o.tempDir || tmpdir();
    const collector = new OutputCollector(tempDir);
    let totalBytes = 0;
    let endsWithNewline = false;
    const exec = operations ?? this.exec;
    const res = await exec.exec(operations ? command : this.shell.wrap(command, this.o.stateDir || tempDir), {
      cwd: this.shell.cwd,
      signal,
      timeoutMs: USER_BASH_TIMEOUT_MS,
      env: { ...NONINTERACTIVE_ENV, ...this.o.settings.bashEnvironment },
      onData: (chunk) => {
        totalBytes += chunk.length;
        if (chunk.length > 0) endsWithNewline = chunk[chunk.length - 1] === 10;
        collector.push(chunk);
      },
    });
    const out = await collector.finish();
    const cancelled = res.aborted || res.timedOut;
    const notice = res.timedOut ? `[Command timed out after ${USER_BASH_TIMEOUT_MS / 1000} seconds]\n` : res.aborted ? CANCELLED_NOTICE : "";
    // The collector drops the trailing newline (tool output); the RPC BashResult keeps it
    // ("hello\n", totalLines 2 = newlines + 1).
    const output = notice + sanitize(out.text + (endsWithNewline ? "\n" : ""));
    const result: BashResult = {
      output,
      cancelled,
      truncated: out.truncation.truncated,
      totalLines: out.totalLines + (endsWithNewline ? 1 : 0),
      totalBytes,
      outputLines: output === "" ? 0 : output.split("\n").length,
      outputBytes: Buffer.byteLength(output),
    };
    if (!cancelled && res.exitCode !== null) result.exitCode = res.exitCode;
    if (out.fullOutputPath) result.fullOutputPath = out.fullOutputPath;
    const newCwd = operations ? undefined : this.shell.update();
    if (newCwd) result.newCwd = newCwd;
    return result;
  }

  private record(command: string, result: BashResult): BashResult {
    const message: BashExecutionMessage = {
      role: "bashExecution",
      command,
      output: result.output,
      cancelled: result.cancelled,
      truncated: result.truncated,
      timestamp: Date.now(),
    };
    if (result.exitCode !== undefined) message.exitCode = result.exitCode;
    if (result.truncated) {
      message.meta = {
        truncation: {
          direction: "tail",
          truncatedBy: "bytes",
          totalLines: result.totalLines,
          totalBytes: result.totalBytes,
          outputLines: result.outputLines,
          outputBytes: result.outputBytes,
          fullOutputPath: result.fullOutputPath,
        },
      };
    }
    this.o.record(message);
    return result;
  }
}

/**
 * pi's BashOperations from a `user_bash` handler as pith's exec port: `exec(command, cwd,
 * {onData, signal, timeout (seconds), env})` resolving `{exitCode}`. pith still enforces the
 * timeout and the abort (the signal it passes fires on both); the environment is the one pith's
 * own commands get (credentials left out).
 */
function extensionOperations(ops: BashOperations, childEnv: Record<string, string> | undefined): ExecOps {
  return {
    async exec(command, o) {
      const controller = new AbortController();
      let timedOut = false;
      const timer = o.timeoutMs ? setTimeout(() => ((timedOut = true), controller.abort()), o.timeoutMs) : undefined;
      const onAbort = () => controller.abort();
      o.signal?.addEventListener("abort", onAbort, { once: true });
      try {
        const options = { onData: o.onData, signal: controller.signal, timeout: o.timeoutMs ? o.timeoutMs / 1000 : undefined, env: { ...childEnv, ...o.env } };
        // An operations object that ignores the signal does not hold the host's command: abort and timeout end the wait.
        const run = Promise.resolve()
          .then(() => ops.exec(command, o.cwd, options))
          .then((res) => ({ exitCode: typeof res?.exitCode === "number" ? res.exitCode : null }), (error: unknown) => ({ error }));
        const stopped = new Promise<{ exitCode: null }>((resolve) => controller.signal.addEventListener("abort", () => resolve({ exitCode: null }), { once: true }));
        const res = await Promise.race([run, stopped]);
        if ("error" in res) throw res.error;
        return { exitCode: res.exitCode, aborted: o.signal?.aborted === true, timedOut };
      } finally {
        clearTimeout(timer);
        o.signal?.removeEventListener("abort", onAbort);
      }
    },
  };
}

const CANCELLED_NOTICE = "[Command cancelled]\n";

/** The answer of a command cancelled before it started: nothing ran, so nothing is recorded. */
function notStarted(): BashResult {
  const output = CANCELLED_NOTICE;
  return { output, cancelled: true, truncated: false, totalLines: 0, totalBytes: 0, outputLines: 2, outputBytes: Buffer.byteLength(output) };
}

/** An extension's `user_bash` result (a BashExecutionMessage-like object) as a BashResult. */
function fromExtension(r: Record<string, unknown>): BashResult {
  const output = typeof r.output === "string" ? r.output : "";
  const bytes = Buffer.byteLength(output);
  const lines = output === "" ? 0 : output.split("\n").length;
  const result: BashResult = {
    output,
    cancelled: r.cancelled === true,
    truncated: r.truncated === true,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
  };
  if (typeof r.exitCode === "number") result.exitCode = r.exitCode;
  return result;
}

/** ANSI escape sequences (CSI, OSC and two-byte escapes). */
// eslint-disable-next-line no-control-regex -- matching ESC/BEL is the point
const ANSI_RE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g;

/** ANSI escapes stripped, CR normalised (CRLF → LF, other CRs dropped). */
function sanitize(text: string): string {
  return text.replace(ANSI_RE, "").replace(/\r\n/g, "\n").replace(/\r/g, "");
}

/**
 * The "persistent shell", kept as state between one-shot shells: every
 * command starts in the previous command's working directory with its exported variables,
 * and leaves them behind in a private state directory.
 */
class ShellState {
  private dir: string | undefined;

  constructor(public cwd: string) {}

  /** The script actually run: restore exports, run the command, save cwd and exports. */
  wrap(command: string, tempDir: string): string {
    this.dir ??= mkdtempSync(path.join(tempDir, "pith-user-shell-"));
    if (!isDirectory(this.cwd)) this.cwd = tempDir;
    const env = shellQuote(path.join(this.dir, "env"));
    const cwd = shellQuote(path.join(this.dir, "cwd"));
    return [
      `[ -f ${env} ] && . ${env} >/dev/null 2>&1`,
      command,
      "__pith_rc=$?",
      `pwd -P > ${cwd} 2>/dev/null`,
      `export -p > ${env} 2>/dev/null`,
      "exit $__pith_rc",
    ].join("\n");
  }

  /** Reads the directory the command left the shell in; undefined when it did not get that far. */
  update(): string | undefined {
    if (!this.dir) return undefined;
    const file = path.join(this.dir, "cwd");
    if (!existsSync(file)) return undefined;
    const next = readFileSync(file, "utf8").trim();
    if (!next || !isDirectory(next)) return undefined;
    this.cwd = next;
    return next;
  }
}

function isDirectory(p: string): boolean {
  return existsSync(p) && statSync(p).isDirectory();
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, "'\\''")}'`;
}
