// `pith serve` as a test starts it: the built CLI listening on 127.0.0.1 with a token, and
// WebSocket hosts that talk to it the way a host does (one frame per text message).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WebSocket } from "ws";
import { CLI, fakeModelsJson, tempDir, type Frame } from "./harness.js";

export const TOKEN = "e2e-serve-token-0123456789abcdef";

export class Served {
  readonly stderrChunks: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  port = 0;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    readonly pithHome: string,
    readonly cwd: string,
  ) {
    child.stderr.on("data", (c: Buffer) => this.stderrChunks.push(c.toString("utf8")));
    this.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  }

  /** Starts `pith serve` with the fake LLM's models and a token file; resolves once it listens. */
  static async start(llmUrl: string, extra: string[] = []): Promise<Served> {
    const pithHome = tempDir("pith-home-");
    writeFileSync(path.join(pithHome, "models.json"), JSON.stringify(fakeModelsJson(llmUrl)));
    return Served.spawn(["--provider", "fake-openai", "--model", "fake-gpt", ...extra], { pithHome, cwd: tempDir("pith-cwd-") });
  }

  /** Starts `pith serve` on 127.0.0.1 with TOKEN and `args` (session flags too) in `cwd`. */
  static async spawn(args: string[], o: { pithHome: string; cwd: string; env?: Record<string, string | undefined> }): Promise<Served> {
    const tokenFile = path.join(o.pithHome, "serve-token");
    writeFileSync(tokenFile, TOKEN + "\n");
    const env = o.env ?? { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: o.pithHome, PITH_HOME: o.pithHome };
    const argv = ["serve", "--listen", "ws://127.0.0.1:0", "--ws-token-file", tokenFile, ...args];
    // stdin closed, as a container starts it
    const child = spawn(process.execPath, [CLI, ...argv], { cwd: o.cwd, env, stdio: ["ignore", "pipe", "pipe"] }) as unknown as ChildProcessWithoutNullStreams;
    const served = new Served(child, o.pithHome, o.cwd);
    served.port = Number((await served.waitForStderr(/listening on ws:\/\/127\.0\.0\.1:(\d+)/))[1]);
    return served;
  }

  get stderr(): string {
    return this.stderrChunks.join("");
  }

  get url(): string {
    return `ws://127.0.0.1:${this.port}`;
  }

  /** Resolves with the match once stderr shows `re`. */
  async waitForStderr(re: RegExp, timeoutMs = 15_000): Promise<RegExpMatchArray> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = re.exec(this.stderr);
      if (m) return m;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`stderr never matched ${re}:\n${this.stderr}`);
      await Promise.race([once(this.child.stderr, "data"), new Promise((r) => setTimeout(r, left))]);
    }
  }

  /** Peak and current resident memory of the pith process, in bytes. */
  memory(): { rss: number; peak: number } {
    const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)![1]) * 1024;
    return { rss: kb("VmRSS"), peak: kb("VmHWM") };
  }

  /** The HTTP status of a plain GET (health probes). */
  async get(pathname: string): Promise<number> {
    const res = await fetch(`http://127.0.0.1:${this.port}${pathname}`);
    await res.text();
    return res.status;
  }
}

/** What an upgrade attempt ended with: open (then closed again), or the HTTP status it was refused with. */
export function tryUpgrade(url: string, headers: Record<string, string> = {}): Promise<number | "open"> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on("open", () => {
      ws.close();
      resolve("open");
    });
    ws.on("unexpected-response", (_req, res) => {
      resolve(res.statusCode ?? 0);
      res.resume();
    });
    ws.on("error", (err) => reject(err));
  });
}

/** One host over a WebSocket: frames in arrival order, requests answered by id. */
export class WsHost {
  readonly frames: Frame[] = [];
  readonly closed: Promise<{ code: number; reason: string }>;
  private waiters: Array<{ pred: (f: Frame) => boolean; resolve: (f: Frame) => void }> = [];
  private nextId = 1;

  private constructor(readonly ws: WebSocket) {
    ws.on("message", (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => (w.pred(frame) ? (w.resolve(frame), false) : true));
    });
    this.closed = new Promise((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: String(reason) })));
  }

  static async connect(url: string, token = TOKEN): Promise<WsHost> {
    const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
    const host = new WsHost(ws);
    await once(ws, "open");
    await host.waitFor((f) => f.type === "ready");
    return host;
  }

  send(frame: Frame): void {
    this.ws.send(JSON.stringify(frame));
  }

  async request(cmd: Frame, timeoutMs = 15_000): Promise<Frame> {
    const id = cmd.id ?? `ws_${this.nextId++}`;
    const from = this.frames.length;
    this.send({ ...cmd, id });
    return this.waitFor((f) => f.type === "response" && f.id === id, timeoutMs, from);
  }

  waitFor(pred: (f: Frame) => boolean, timeoutMs = 15_000, from = 0): Promise<Frame> {
    for (let i = from; i < this.frames.length; i++) if (pred(this.frames[i])) return Promise.resolve(this.frames[i]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out; last frames:\n${this.frames.slice(-5).map((f) => JSON.stringify(f).slice(0, 200)).join("\n")}`)), timeoutMs);
      this.waiters.push({ pred, resolve: (f) => (clearTimeout(timer), resolve(f)) });
    });
  }

  /** Prompts and resolves with the frames from the prompt's response to its `agent_settled`. */
  async promptAndSettle(message: string): Promise<Frame[]> {
    const from = this.frames.length;
    const res = await this.request({ type: "prompt", message });
    if (!res.success) throw new Error(`prompt failed: ${res.error}`);
    await this.waitFor((f) => f.type === "agent_settled", 30_000, from);
    return this.frames.slice(from);
  }
}
