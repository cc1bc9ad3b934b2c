// One agent process driven over JSONL on stdio, measured from the outside: stdout bytes, CPU
// time and RSS from /proc. Lean on purpose: message_update frames are counted, not parsed, so
// the bench process never becomes the bottleneck of a 20,000-delta stream.
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { readFileSync } from "node:fs";

export type Frame = Record<string, any>;

export interface Launch {
  cmd: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

interface Waiter {
  pred: (f: Frame) => boolean;
  resolve: (f: Frame) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

const UPDATE_PREFIX = '{"type":"message_update"';
const CLK_TCK = 100;

export class ExitedError extends Error {}

export class AgentProc {
  readonly child: ChildProcessWithoutNullStreams;
  readonly spawnedAt: number;
  readonly frames: Frame[] = [];
  /** performance.now() at which each entry of `frames` arrived. */
  readonly times: number[] = [];
  stdoutBytes = 0;
  updateFrames = 0;
  /** performance.now() of the first message_update since the caller last cleared it. */
  firstUpdateAt: number | undefined;
  exit: { code: number | null; signal: string | null } | undefined;
  private stderrTail = "";
  private carry: Buffer[] = [];
  private waiters: Waiter[] = [];
  private nextId = 1;

  constructor(launch: Launch) {
    this.spawnedAt = performance.now();
    this.child = spawn(launch.cmd, launch.args, { cwd: launch.cwd, env: launch.env, stdio: "pipe" });
    this.child.stdout.on("data", (c: Buffer) => this.onData(c));
    this.child.stderr.on("data", (c: Buffer) => (this.stderrTail = (this.stderrTail + c.toString("utf8")).slice(-4000)));
    this.child.stdin.on("error", () => undefined);
    this.child.on("exit", (code, signal) => {
      this.exit = { code, signal };
      for (const w of this.waiters.splice(0)) {
        clearTimeout(w.timer);
        w.reject(new ExitedError(`exited (code ${code}, signal ${signal}): ${this.lastStderrLine()}`));
      }
    });
  }

  get pid(): number {
    return this.child.pid ?? -1;
  }

  lastStderrLine(): string {
    const lines = this.stderrTail.trim().split("\n").filter((l) => l.trim() !== "");
    const hit = [/ENOBUFS|EPIPE|heap out of memory/, /Error/].map((re) => lines.find((l) => re.test(l))).find((l) => l !== undefined);
    return (hit ?? lines.at(-1) ?? "").trim().slice(0, 120);
  }

  private onData(chunk: Buffer): void {
    this.stdoutBytes += chunk.length;
    // a multi-MiB line arrives in 64 KiB chunks: hold them until its LF instead of copying the
    // growing line once per chunk (that quadratic copy was billed to the agent's response time)
    if (chunk.indexOf(10) === -1) {
      this.carry.push(chunk);
      return;
    }
    let buf = this.carry.length > 0 ? Buffer.concat([...this.carry.splice(0), chunk]) : chunk;
    let start = 0;
    let nl: number;
    while ((nl = buf.indexOf(10, start)) !== -1) {
      this.onLine(buf, start, nl);
      start = nl + 1;
    }
    buf = buf.subarray(start);
    if (buf.length > 0) this.carry.push(Buffer.from(buf));
  }

  private onLine(buf: Buffer, start: number, end: number): void {
    if (end - start > UPDATE_PREFIX.length && buf.toString("latin1", start, start + UPDATE_PREFIX.length) === UPDATE_PREFIX) {
      this.updateFrames++;
      this.firstUpdateAt ??= performance.now();
      return;
    }
    const line = buf.toString("utf8", start, end).trim();
    if (!line) return;
    let frame: Frame;
    try {
      frame = JSON.parse(line) as Frame;
    } catch (err) {
      frame = { type: "__unparsable__", error: String(err) };
    }
    // Keep frames up to 256 KiB whole: a 2 MiB tool result should not be held twice.
    this.times.push(performance.now());
    this.frames.push(line.length > 262_144 ? { type: frame.type, id: frame.id, command: frame.command, success: frame.success } : frame);
    this.waiters = this.waiters.filter((w) => {
      if (!w.pred(frame)) return true;
      clearTimeout(w.timer);
      w.resolve(frame);
      return false;
    });
  }

  send(frame: Frame): void {
    this.child.stdin.write(JSON.stringify(frame) + "\n");
  }

  request(cmd: Frame, timeoutMs = 30_000): Promise<Frame> {
    const id = `b${this.nextId++}`;
    const p = this.waitFor((f) => f.type === "response" && f.id === id, timeoutMs, this.frames.length);
    this.send({ ...cmd, id });
    return p;
  }

  waitFor(pred: (f: Frame) => boolean, timeoutMs: number, from = 0): Promise<Frame> {
    for (let i = from; i < this.frames.length; i++) if (pred(this.frames[i])) return Promise.resolve(this.frames[i]);
    if (this.exit) return Promise.reject(new ExitedError(`exited (code ${this.exit.code}): ${this.lastStderrLine()}`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.timer !== timer);
        reject(new Error(`timeout after ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push({ pred, resolve, reject, timer });
    });
  }

  /** Sends a prompt and resolves when agent_end arrives; then waits until get_state reports idle. */
  async promptAndWait(message: string, timeoutMs: number): Promise<void> {
    const from = this.frames.length;
    const end = this.waitFor((f) => f.type === "agent_end", timeoutMs, from);
    const res = await this.request({ type: "prompt", message }, timeoutMs);
    if (!res.success) throw new Error(`prompt failed: ${String(res.error)}`);
    await end;
    for (let i = 0; i < 200; i++) {
      const st = await this.request({ type: "get_state" }, timeoutMs);
      if (!st.data?.isStreaming) return;
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** utime + stime of the agent process, in ms. */
  cpuMs(): number {
    const stat = readFileSync(`/proc/${this.pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  }

  /** VmRSS / VmHWM (peak) in MiB. */
  memMiB(): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${this.pid}/status`, "utf8");
    const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? NaN);
    return { rss: kb("VmRSS") / 1024, peak: kb("VmHWM") / 1024 };
  }

  /** Closes stdin, waits for exit, kills if it does not come. */
  async close(timeoutMs = 5000): Promise<void> {
    if (this.exit) return;
    const exited = new Promise<void>((r) => this.child.once("exit", () => r()));
    this.child.stdin.end();
    const t = setTimeout(() => this.child.kill("SIGKILL"), timeoutMs);
    await exited;
    clearTimeout(t);
  }
}
