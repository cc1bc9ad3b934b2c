// Spawns the built CLI in RPC mode and talks to it the way a host does: LF-framed JSON on
// stdin, frames parsed from stdout (split on LF only).
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, afterEach, beforeAll } from "vitest";
import { startFakeLlmServer, type FakeLlm, type FakeLlmOptions } from "../support/fake-llm-server.js";

export const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli.js");

export type Frame = Record<string, any>;

export interface StartOptions {
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  pithHome?: string;
  /** Written to PITH_HOME/models.json. */
  modelsJson?: unknown;
  /** The exact arguments after the CLI path (instead of `--mode rpc` + `args`), as a launcher builds them. */
  argv?: string[];
}

export function tempDir(prefix = "pith-e2e-"): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** models.json pointing two providers at a fake LLM server. */
export function fakeModelsJson(baseUrl: string, over: { contextWindow?: number; reasoning?: boolean } = {}): unknown {
  const model = (id: string) => ({
    id,
    name: id,
    reasoning: over.reasoning ?? true,
    input: ["text", "image"],
    contextWindow: over.contextWindow ?? 200000,
    maxTokens: 8192,
    cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  });
  return {
    providers: {
      "fake-openai": { baseUrl, api: "openai-completions", apiKey: "test-key-openai", models: [model("fake-gpt")] },
      "fake-anthropic": { baseUrl, api: "anthropic-messages", apiKey: "test-key-anthropic", models: [model("fake-claude")] },
    },
  };
}

export class Pith {
  readonly frames: Frame[] = [];
  readonly stderrChunks: string[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: Buffer[] = [];
  private waiters: { pred: (f: Frame) => boolean; resolve: (f: Frame) => void; from: number }[] = [];
  private nextId = 1;
  stdoutBytes = 0;

  constructor(readonly child: ChildProcessWithoutNullStreams, readonly pithHome: string, readonly cwd: string) {
    child.stdout.on("data", (chunk: Buffer) => this.onData(chunk));
    child.stderr.on("data", (c: Buffer) => this.stderrChunks.push(c.toString("utf8")));
    this.exited = new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal })));
  }

  static async start(opts: StartOptions = {}): Promise<Pith> {
    const pithHome = opts.pithHome ?? tempDir("pith-home-");
    const cwd = opts.cwd ?? tempDir("pith-cwd-");
    mkdirSync(pithHome, { recursive: true });
    if (opts.modelsJson) writeFileSync(path.join(pithHome, "models.json"), JSON.stringify(opts.modelsJson));
    const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: pithHome, PITH_HOME: pithHome, ...opts.env };
    const argv = opts.argv ?? ["--mode", "rpc", ...(opts.args ?? [])];
    const child = spawn(process.execPath, [CLI, ...argv], { cwd, env, stdio: "pipe" });
    const pith = new Pith(child, pithHome, cwd);
    await pith.waitFor((f) => f.type === "ready", 10_000);
    return pith;
  }

  get stderr(): string {
    return this.stderrChunks.join("");
  }

  private onData(chunk: Buffer): void {
    this.stdoutBytes += chunk.length;
    // A frame of many MiB arrives in many chunks: join them once its LF is there, not per chunk.
    if (chunk.indexOf(10) === -1) {
      this.pending.push(chunk);
      return;
    }
    const parts = [...this.pending, chunk];
    this.pending = [];
    this.buffer = this.buffer.length || parts.length > 1 ? Buffer.concat([this.buffer, ...parts]) : chunk;
    let nl: number;
    while ((nl = this.buffer.indexOf(10)) !== -1) {
      const line = this.buffer.subarray(0, nl).toString("utf8");
      this.buffer = this.buffer.subarray(nl + 1);
      if (!line.trim()) continue;
      let frame: Frame;
      try {
        frame = JSON.parse(line);
      } catch {
        frame = { type: "__unparsable__", line };
      }
      this.frames.push(frame);
      this.waiters = this.waiters.filter((w) => {
        if (!w.pred(frame)) return true;
        w.resolve(frame);
        return false;
      });
    }
  }

  /** Writes raw text to stdin (no newline added). */
  writeRaw(text: string | Buffer): void {
    this.child.stdin.write(text);
  }

  send(frame: Frame): void {
    this.child.stdin.write(JSON.stringify(frame) + "\n");
  }

  /** Sends a command with a fresh id and resolves with its (first) response. */
  async request(cmd: Frame, timeoutMs = 15_000): Promise<Frame> {
    const id = cmd.id ?? `req_${this.nextId++}`;
    const from = this.frames.length;
    this.send({ ...cmd, id });
    return this.waitFor((f) => f.type === "response" && f.id === id, timeoutMs, from);
  }

  /** Resolves with the first frame (at or after index `from`) matching `pred`. */
  waitFor(pred: (f: Frame) => boolean, timeoutMs = 15_000, from = 0): Promise<Frame> {
    for (let i = from; i < this.frames.length; i++) if (pred(this.frames[i])) return Promise.resolve(this.frames[i]);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`timed out waiting for a frame; last frames:\n${this.frames.slice(-8).map((f) => JSON.stringify(f).slice(0, 300)).join("\n")}\nstderr:\n${this.stderr.slice(-2000)}`));
      }, timeoutMs);
      this.waiters.push({
        pred,
        from,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      });
    });
  }

  /** Prompts and waits until the agent is idle again (isStreaming false). Returns the frames of the run. */
  async promptAndWait(message: string, extra: Frame = {}, timeoutMs = 30_000): Promise<Frame[]> {
    const from = this.frames.length;
    const res = await this.request({ type: "prompt", message, ...extra });
    if (!res.success) throw new Error(`prompt failed: ${res.error}`);
    await this.waitIdle(timeoutMs, from);
    return this.frames.slice(from);
  }

  /** Waits for an agent_end after `from`, then polls get_state until isStreaming is false. */
  async waitIdle(timeoutMs = 30_000, from = 0): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    await this.waitFor((f) => f.type === "agent_end", timeoutMs, from);
    for (;;) {
      const state = await this.request({ type: "get_state" });
      if (!state.data.isStreaming) return;
      if (Date.now() > deadline) throw new Error("agent did not become idle");
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  events(type: string, from = 0): Frame[] {
    return this.frames.slice(from).filter((f) => f.type === type);
  }

  async close(): Promise<number | null> {
    this.child.stdin.end();
    const res = await Promise.race([this.exited, new Promise<null>((r) => setTimeout(() => r(null), 10_000))]);
    if (res === null) {
      this.child.kill("SIGKILL");
      return null;
    }
    return res.code;
  }
}

/** Sends a command and resolves with its `data`; a failed response throws with its error. */
export async function ok(p: Pith, cmd: Frame, timeoutMs = 60_000): Promise<any> {
  const res = await p.request(cmd, timeoutMs);
  if (!res.success) throw new Error(`${cmd.type} failed: ${res.error}`);
  return res.data;
}

/** Every Pith pushed into the returned list is killed after each test if still running. */
export function trackPiths(): Pith[] {
  const list: Pith[] = [];
  afterEach(() => {
    for (const p of list.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  });
  return list;
}

/** A fake LLM server for the whole test file: started before all tests, closed after them. */
export function useFakeLlm(options?: FakeLlmOptions): FakeLlm {
  let server: FakeLlm | undefined;
  beforeAll(async () => {
    server = await startFakeLlmServer(options);
  });
  afterAll(async () => {
    await server?.close();
  });
  return new Proxy({} as FakeLlm, {
    get(_target, key) {
      if (!server) throw new Error("the fake LLM server is not started yet (use it inside tests or hooks)");
      const value = (server as any)[key];
      return typeof value === "function" ? value.bind(server) : value;
    },
  });
}
