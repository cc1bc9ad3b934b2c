// The host's own shell commands (RPC `bash` / `abort_bash`, spec/engine.md §2.11): run beside
// the agent in the session cwd, in their own process group, recorded as `bashExecution`.
import { tmpdir } from "node:os";
import { OutputCollector } from "../tools/bash/output-collector.js";
import { createNodeExecOps, NONINTERACTIVE_ENV, type ExecOps } from "../tools/ops/exec-ops.js";
import { PithError } from "../shared/errors.js";
import type { BashExecutionMessage } from "../shared/types.js";
import type { AgentSession } from "./agent-session.js";

export const USER_BASH_TIMEOUT_MS = 300_000;

export interface BashResult {
  output: string;
  exitCode?: number;
  cancelled: boolean;
  truncated: boolean;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  /** pith extra: the complete output when it was truncated. */
  fullOutputPath?: string;
}

export class UserBash {
  private controller: AbortController | undefined;
  private readonly exec: ExecOps;

  constructor(private readonly session: AgentSession) {
    const settings = session.settings;
    this.exec = createNodeExecOps({ shell: settings.shellPath });
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  /** `abort_bash`: kills the running command's process group; a no-op when idle. */
  abort(): void {
    this.controller?.abort();
  }

  async run(command: unknown): Promise<BashResult> {
    if (typeof command !== "string" || command.trim() === "") {
      throw new PithError("invalid_request", 'Invalid "command": expected a non-empty string');
    }
    if (this.controller) throw new PithError("busy", "A bash command is already running. Use abort_bash to stop it.");
    const ext = this.session.deps.extensions;
    const cwd = this.session.deps.cwd;
    if (ext?.hasHandlers("user_bash")) {
      const replaced = await ext.emit({ type: "user_bash", command, excludeFromContext: false, cwd });
      if (replaced?.result) return this.record(command, fromExtension(replaced.result as Record<string, unknown>));
    }
    const controller = new AbortController();
    this.controller = controller;
    try {
      const collector = new OutputCollector(this.session.deps.tempDir || tmpdir());
      let totalBytes = 0;
      const res = await this.exec.exec(command, {
        cwd,
        signal: controller.signal,
        timeoutMs: USER_BASH_TIMEOUT_MS,
        env: { ...NONINTERACTIVE_ENV, ...this.session.settings.bashEnvironment },
        onData: (chunk) => {
          totalBytes += chunk.length;
          collector.push(chunk);
        },
      });
      const out = await collector.finish();
      const cancelled = res.aborted || res.timedOut;
      const notice = res.timedOut ? `[Command timed out after ${USER_BASH_TIMEOUT_MS / 1000} seconds]\n` : res.aborted ? "[Command cancelled]\n" : "";
      const output = notice + out.text;
      const result: BashResult = {
        output,
        cancelled,
        truncated: out.truncation.truncated,
        totalLines: out.totalLines,
        totalBytes,
        outputLines: output === "" ? 0 : output.split("\n").length,
        outputBytes: Buffer.byteLength(output),
      };
      if (!cancelled && res.exitCode !== null) result.exitCode = res.exitCode;
      if (out.fullOutputPath) result.fullOutputPath = out.fullOutputPath;
      return this.record(command, result);
    } finally {
      this.controller = undefined;
    }
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
    this.session.recordBash(message);
    return result;
  }
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
