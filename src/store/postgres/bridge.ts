// The main thread's side of the session database. The session reads and writes its log
// synchronously (an append returns only once its line is stored, so the host never hears of an
// entry that is not), while the PostgreSQL driver is asynchronous: the driver runs in a worker
// thread, and a synchronous call posts its request and waits on a shared flag until the answer
// is there (as the JSONL store waits for its write). Listings and other reads a host awaits
// anyway are asynchronous calls that do not block. Every wait is bounded: an operation keeps
// reconnecting up to the store's reconnect window, then fails with a clear error.
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { MessageChannel, Worker, receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { PithError, type PithErrorCode } from "../../shared/errors.js";
import type { Answer, Request, WorkerInit } from "./protocol.js";
import { redact } from "./redact.js";

/** Beyond the reconnect window: time for the statement itself. */
const STATEMENT_MS = 30_000;
/** How long past its deadline the main thread waits for the worker's answer. */
const GRACE_MS = 2_000;

/** The worker's script: the bundle's `pg-worker.js`, or the TypeScript source under tsx (tests). */
function workerScript(): { file: string | URL; eval: boolean } {
  const here = fileURLToPath(import.meta.url);
  if (here.endsWith(".ts")) {
    const tsx = path.join(path.dirname(createRequire(import.meta.url).resolve("tsx/package.json")), "dist/esm/api/index.mjs");
    const source = pathToFileURL(path.join(path.dirname(here), "worker.ts")).href;
    const code = `import(${JSON.stringify(pathToFileURL(tsx).href)}).then((m) => { m.register(); return import(${JSON.stringify(source)}); });`;
    return { file: code, eval: true };
  }
  // bundled: dist/pg-worker.js, beside this chunk or one folder up (dist/chunks/)
  for (const dir of [path.dirname(here), path.dirname(path.dirname(here))]) {
    const file = path.join(dir, "pg-worker.js");
    if (existsSync(file)) return { file, eval: false };
  }
  throw new PithError("internal", `The session database worker (pg-worker.js) is missing beside ${here}`);
}

export class DbBridge {
  private readonly worker: Worker;
  private readonly flag = new Int32Array(new SharedArrayBuffer(4));
  private readonly requests: MessagePort;
  private readonly syncAnswers: MessagePort;
  /** Referenced while an asynchronous call waits (an awaited answer keeps pith running), else not. */
  private readonly asyncAnswers: MessagePort;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  private nextId = 1;
  private gone: string | undefined;

  constructor(
    private readonly init: WorkerInit,
    /** The PG* variables the worker's process.env holds. */
    env: Record<string, string>,
  ) {
    const req = new MessageChannel();
    const sync = new MessageChannel();
    const asyncAnswers = new MessageChannel();
    const script = workerScript();
    this.worker = new Worker(script.file, {
      eval: script.eval,
      env,
      workerData: { ...init, requests: req.port2, syncAnswers: sync.port2, asyncAnswers: asyncAnswers.port2, flag: this.flag.buffer },
      transferList: [req.port2, sync.port2, asyncAnswers.port2],
    });
    this.requests = req.port1;
    this.syncAnswers = sync.port1;
    this.asyncAnswers = asyncAnswers.port1;
    this.asyncAnswers.on("message", (a: Answer) => this.settle(a));
    this.asyncAnswers.unref();
    this.worker.on("error", (err) => this.fail(`the session database worker failed: ${err.message}`));
    this.worker.on("exit", () => this.fail("the session database worker has stopped"));
    // the worker never keeps pith running: exiting ends the connection, which releases the locks
    this.worker.unref();
  }

  /** The reconnect window: how long one operation keeps trying before it fails. */
  get reconnectMs(): number {
    return this.init.reconnectMs;
  }

  /** Runs `op` and waits for its answer, blocking this thread (bounded). */
  call<T>(op: string, args: unknown[] = [], timeoutMs = this.init.reconnectMs + STATEMENT_MS): T {
    this.ensureAlive();
    const id = this.nextId++;
    const deadline = Date.now() + timeoutMs;
    this.requests.postMessage({ id, op, args, deadline, sync: true } satisfies Request);
    for (;;) {
      const seen = Atomics.load(this.flag, 0);
      for (let m = receiveMessageOnPort(this.syncAnswers); m; m = receiveMessageOnPort(this.syncAnswers)) {
        const a = m.message as Answer;
        if (a.id === id) return this.unwrap(a) as T;
        // an answer to an earlier call that gave up waiting: nobody wants it any more
      }
      const left = deadline + GRACE_MS - Date.now();
      if (left <= 0) throw new PithError("io", `The session database did not answer within ${Math.round(timeoutMs / 1000)} s (${op})`);
      Atomics.wait(this.flag, 0, seen, left);
    }
  }

  /** Runs `op` without blocking. */
  callAsync<T>(op: string, args: unknown[] = [], timeoutMs = this.init.reconnectMs + STATEMENT_MS): Promise<T> {
    this.ensureAlive();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.forget(id);
        reject(new PithError("io", `The session database did not answer within ${Math.round(timeoutMs / 1000)} s (${op})`));
      }, timeoutMs + GRACE_MS);
      timer.unref();
      if (this.pending.size === 0) this.asyncAnswers.ref();
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.requests.postMessage({ id, op, args, deadline: Date.now() + timeoutMs, sync: false } satisfies Request);
    });
  }

  /** Ends the connection (releasing every lock of this process) and the worker. */
  close(): void {
    if (this.gone) return;
    try {
      this.call("close", [], 2_000);
    } finally {
      this.fail("the session store is closed");
      void this.worker.terminate();
    }
  }

  private ensureAlive(): void {
    if (this.gone) throw new PithError("io", `Session database unavailable: ${this.gone}`);
  }

  private fail(why: string): void {
    this.gone ??= why;
    for (const p of this.pending.values()) p.reject(new PithError("io", `Session database unavailable: ${why}`));
    this.pending.clear();
    this.asyncAnswers.unref();
  }

  private forget(id: number): void {
    this.pending.delete(id);
    if (this.pending.size === 0) this.asyncAnswers.unref();
  }

  private settle(a: Answer): void {
    const p = this.pending.get(a.id);
    if (!p) return;
    this.forget(a.id);
    try {
      p.resolve(this.unwrap(a));
    } catch (err) {
      p.reject(err as Error);
    }
  }

  private unwrap(a: Answer): unknown {
    if (a.ok) return a.value;
    throw new PithError(a.code as PithErrorCode, redact(a.message, this.init.secrets));
  }
}
