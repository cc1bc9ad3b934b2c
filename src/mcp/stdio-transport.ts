// An MCP stdio client transport that runs the server in its own process group,
// so the server and everything it starts die together: on close, on crash, and on pith's exit
// (the group is in tools' registry, which `killAllProcessGroups()` empties). The SDK's
// StdioClientTransport cannot do that (no `detached`), so this one spawns the child itself and
// uses the SDK's own framing (`ReadBuffer`, `serializeMessage`). stderr goes to a sink, never
// to pith's stdout. Loaded lazily, with the SDK (see open-client.ts).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { registerProcessGroup, signalProcessGroup, unregisterProcessGroup } from "../tools/ops/process-groups.js";

export interface GroupStdioOptions {
  command: string;
  args: string[];
  /** The child's whole environment. */
  env: Record<string, string>;
  cwd: string;
  /** Rewrites the command line just before the spawn (the sandbox); the process group stays the spawned process's. */
  wrap?: (line: { file: string; args: string[] }, cwd: string) => { file: string; args: string[] };
  /** Every chunk the server writes on stderr. */
  onStderr: (text: string) => void;
  /** The process started (its pid is also its process group id). */
  onSpawn: (pid: number) => void;
  /** After stdin is closed: wait this long for an exit, then SIGTERM, again, then SIGKILL. */
  killGraceMs: number;
}

const STDERR_TAIL = 2048;

export class GroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private child?: ChildProcessWithoutNullStreams;
  private readonly buffer = new ReadBuffer();
  private exitInfo?: { code: number | null; signal: NodeJS.Signals | null };
  private exited?: Promise<void>;
  private closing?: Promise<void>;
  private stderrTail = "";

  constructor(private readonly opts: GroupStdioOptions) {}

  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** How the process ended ("exited with code 3: <last stderr line>"), once it has. */
  describeExit(): string | undefined {
    if (!this.exitInfo) return undefined;
    const { code, signal } = this.exitInfo;
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const last = this.stderrTail.trim().split("\n").pop()?.trim().slice(0, 200);
    return last ? `${how} (stderr: ${last})` : how;
  }

  start(): Promise<void> {
    if (this.child) return Promise.reject(new Error("GroupStdioTransport already started"));
    return new Promise((resolve, reject) => {
      const { command, args, env, cwd, wrap } = this.opts;
      const line = wrap ? wrap({ file: command, args }, cwd) : { file: command, args };
      const child = spawn(line.file, line.args, { cwd, env, detached: true, stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
      this.child = child;
      let started = false;
      child.once("spawn", () => {
        started = true;
        if (child.pid !== undefined) {
          registerProcessGroup(child.pid);
          this.opts.onSpawn(child.pid);
        }
        resolve();
      });
      child.once("error", (err) => {
        if (!started) reject(new Error(`cannot start "${command}": ${spawnProblem(err, cwd)}`));
        else this.onerror?.(err);
      });
      this.exited = new Promise((done) => child.once("exit", (code, signal) => done(this.onExit(code, signal))));
      child.once("close", () => started && this.onclose?.());
      child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
      child.stderr.on("data", (chunk: Buffer) => this.onStderrChunk(chunk));
      for (const stream of [child.stdin, child.stdout, child.stderr]) stream.on("error", (err) => this.onerror?.(err));
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    const stdin = this.child?.stdin;
    if (!stdin || !stdin.writable || this.exitInfo) return Promise.reject(new Error("Not connected"));
    return new Promise((resolve, reject) => stdin.write(serializeMessage(message), (err) => (err ? reject(err) : resolve())));
  }

  /** Closes stdin, then escalates to SIGTERM and SIGKILL of the group; resolves once it is gone. */
  close(): Promise<void> {
    this.closing ??= this.shutDown();
    return this.closing;
  }

  private async shutDown(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) return;
    const grace = this.opts.killGraceMs;
    child.stdin.end();
    for (const signal of ["SIGTERM", "SIGKILL"] as const) {
      if (await this.exitsWithin(grace)) break;
      this.signalGroup(child.pid, signal);
    }
    await this.exitsWithin(grace);
    this.buffer.clear();
  }

  private async exitsWithin(ms: number): Promise<boolean> {
    if (this.exitInfo) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
    const result = await Promise.race([this.exited?.then(() => true) ?? Promise.resolve(true), timeout]);
    clearTimeout(timer);
    return result;
  }

  /** The leader is gone: whatever it left in its group goes too, then the group is forgotten. */
  private onExit(code: number | null, signal: NodeJS.Signals | null): void {
    this.exitInfo = { code, signal };
    const pid = this.child?.pid;
    if (pid === undefined) return;
    this.signalGroup(pid, "SIGKILL");
    unregisterProcessGroup(pid);
  }

  private signalGroup(pid: number, signal: NodeJS.Signals): void {
    try {
      signalProcessGroup(pid, signal);
    } catch (err) {
      this.onerror?.(err as Error);
    }
  }

  private onStdout(chunk: Buffer): void {
    try {
      this.buffer.append(chunk);
    } catch (err) {
      this.onerror?.(err as Error); // over the SDK's buffer cap: the server is broken
      void this.close();
      return;
    }
    while (true) {
      let message: JSONRPCMessage | null;
      try {
        message = this.buffer.readMessage();
      } catch (err) {
        this.onerror?.(new Error(`server wrote a line that is not a JSON-RPC message: ${(err as Error).message}`));
        continue;
      }
      if (message === null) break;
      this.onmessage?.(message);
    }
  }

  private onStderrChunk(chunk: Buffer): void {
    const text = chunk.toString("utf8");
    this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL);
    this.opts.onStderr(text);
  }
}

/** A missing working directory fails spawn with ENOENT too; say which of the two is missing. */
function spawnProblem(err: Error, cwd: string): string {
  if ((err as NodeJS.ErrnoException).code === "ENOENT" && !existsSync(cwd)) return `the working directory ${cwd} does not exist`;
  return err.message;
}
