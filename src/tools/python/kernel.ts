// One persistent IPython kernel behind the Python bridge (./bridge.ts): started on first use,
// one execution at a time, interrupted on abort (killed when it does not stop), shut down with
// the session.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { registerProcessGroup, signalProcessGroup, unregisterProcessGroup } from "../ops/process-groups.js";
import type { CommandLine } from "../ops/exec-ops.js";
import { BRIDGE } from "./bridge.js";

export type KernelEvent =
  | { type: "stream"; name: string; text: string }
  | { type: "display"; data: Record<string, unknown> }
  | { type: "error"; ename: string; evalue: string; traceback: string[] };

export interface ExecuteResult {
  status: "ok" | "error" | "timeout" | "aborted";
  events: KernelEvent[];
}

/** How long an interrupted execution may take to stop before the kernel is killed. */
const INTERRUPT_GRACE_MS = 700;
const START_TIMEOUT_MS = 90_000;

interface Pending {
  id: number;
  events: KernelEvent[];
  onEvent(e: KernelEvent): void;
  resolve(r: ExecuteResult): void;
}

export class PythonKernel {
  private child: ChildProcess | undefined;
  private starting: Promise<void> | undefined;
  private pending: Pending | undefined;
  private nextId = 1;
  private queue: Promise<unknown> = Promise.resolve();
  private stderr = "";

  constructor(private readonly o: { interpreter: string; cwd: string; env?: Record<string, string>; wrapCommand?: (line: CommandLine, cwd: string) => CommandLine }) {}

  /** Runs `code`; results stream through onEvent. Calls are serialised. */
  execute(code: string, opts: { timeoutSeconds: number; signal: AbortSignal; onEvent: (e: KernelEvent) => void; reset?: boolean }): Promise<ExecuteResult> {
    const run = this.queue.then(() => this.run(code, opts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(code: string, opts: { timeoutSeconds: number; signal: AbortSignal; onEvent: (e: KernelEvent) => void; reset?: boolean }): Promise<ExecuteResult> {
    if (opts.signal.aborted) return { status: "aborted", events: [] };
    if (opts.reset) this.kill();
    await this.start();
    const child = this.child!;
    const id = this.nextId++;
    return new Promise<ExecuteResult>((resolve) => {
      let aborted = false;
      let killTimer: NodeJS.Timeout | undefined;
      const finish = (r: ExecuteResult): void => {
        opts.signal.removeEventListener("abort", onAbort);
        clearTimeout(killTimer);
        this.pending = undefined;
        resolve(aborted ? { ...r, status: "aborted" } : r);
      };
      const onAbort = (): void => {
        aborted = true;
        child.stdin?.write(JSON.stringify({ type: "interrupt" }) + "\n");
        // a kernel stuck outside Python (or ignoring SIGINT) is killed; the next call starts a new one
        killTimer = setTimeout(() => {
          this.kill();
          finish({ status: "aborted", events: this.pending?.events ?? [] });
        }, INTERRUPT_GRACE_MS);
      };
      this.pending = { id, events: [], onEvent: opts.onEvent, resolve: finish };
      opts.signal.addEventListener("abort", onAbort, { once: true });
      child.stdin?.write(JSON.stringify({ type: "execute", id, code, timeout: opts.timeoutSeconds }) + "\n");
    });
  }

  private start(): Promise<void> {
    if (this.child && this.child.exitCode === null && !this.child.killed) return this.starting ?? Promise.resolve();
    this.stderr = "";
    // Under the sandbox the bridge and its kernel run inside bubblewrap (same roots and network rule as `bash`).
    const plain = { file: this.o.interpreter, args: ["-u", "-c", BRIDGE, this.o.cwd] };
    const line = this.o.wrapCommand ? this.o.wrapCommand(plain, this.o.cwd) : plain;
    const child = spawn(line.file, line.args, {
      cwd: this.o.cwd,
      env: this.o.env,
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    this.child = child;
    if (child.pid !== undefined) registerProcessGroup(child.pid);
    child.stdin?.on("error", () => undefined);
    child.stderr?.on("data", (d: Buffer) => {
      this.stderr = (this.stderr + d.toString("utf8")).slice(-4000);
    });
    this.starting = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`Python kernel did not start within ${START_TIMEOUT_MS / 1000} s`)), START_TIMEOUT_MS);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        if (this.child === child) this.kill();
        reject(err);
      };
      const lines = createInterface({ input: child.stdout! });
      lines.on("line", (line) => {
        let msg: Record<string, unknown>;
        try {
          msg = JSON.parse(line) as Record<string, unknown>;
        } catch {
          return;
        }
        if (msg.type === "ready") {
          clearTimeout(timer);
          resolve();
          return;
        }
        const p = this.pending;
        if (!p || msg.id !== p.id) return;
        if (msg.type === "done") p.resolve({ status: msg.status as ExecuteResult["status"], events: p.events });
        else {
          const e = msg as unknown as KernelEvent;
          p.events.push(e);
          p.onEvent(e);
        }
      });
      child.on("error", (err) => fail(new Error(`Cannot start ${this.o.interpreter}: ${err.message}`)));
      child.on("exit", (code, signal) => {
        if (child.pid !== undefined) unregisterProcessGroup(child.pid);
        if (this.child === child) this.child = undefined;
        const why = `Python kernel exited (${signal ?? `code ${code}`})${this.stderr.trim() ? `: ${this.stderr.trim().split("\n").slice(-3).join("\n")}` : ""}`;
        fail(new Error(why));
        this.pending?.resolve({ status: "error", events: [...(this.pending?.events ?? []), { type: "error", ename: "KernelDied", evalue: why, traceback: [why] }] });
      });
    });
    return this.starting;
  }

  /** Kills the bridge and its kernel (the kernel notices its parent is gone). */
  kill(): void {
    const child = this.child;
    this.child = undefined;
    this.starting = undefined;
    if (!child || child.pid === undefined) return;
    child.stdin?.end();
    signalProcessGroup(child.pid, "SIGKILL");
  }

  /** Shuts the kernel down: stdin closes (the bridge stops it), then a kill after a grace period. */
  async dispose(): Promise<void> {
    const child = this.child;
    if (!child || child.pid === undefined) return;
    child.stdin?.end();
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => {
        this.kill();
        resolve();
      }, 2000);
      child.once("exit", () => {
        clearTimeout(t);
        resolve();
      });
    });
    this.child = undefined;
  }
}
