// The wire half of the host client: process lifecycle, LF framing, `req_<n>` correlation,
// typed event subscription and clean shutdown. RpcCommands adds one method per command on top.
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import type { OutboundFrame, RpcCommandType, RpcResponseData } from "../protocol/index.js";
import { RpcClientError, RpcError } from "./errors.js";
import { JsonlLineSplitter, type LineItem } from "../transport/jsonl-reader.js";
import { parseFrameLine } from "./frame-line.js";
import { FrameReassembler } from "./v2-frames.js";
import { killGroup, spawnAgent } from "./process-group.js";
import type { CommandParams, FrameHandler, FrameOf, OutboundFrameType, RpcClientOptions } from "./types.js";

type AnyFrame = Record<string, unknown> & { type: string };
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a listener reads the frame type it subscribed to
type AnyHandler = (frame: any) => void;
interface Pending {
  command: string;
  resolve(data: unknown): void;
  reject(err: Error): void;
  timer?: NodeJS.Timeout;
}
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
}

const STDERR_CAP = 64 * 1024;

function sleep(ms: number): { promise: Promise<null>; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  return { promise, cancel: () => clearTimeout(timer) };
}

/** What the client needs of a WebSocket (the `ws` package's client socket). */
interface SocketLink {
  send(text: string): void;
  close(code?: number): void;
  readonly readyState: number;
}

/** Options of `connect`: the capability token `pith serve` checks at the upgrade. */
export interface ConnectOptions {
  token?: string;
  /** Extra upgrade headers (an `Origin` the server allows, a proxy's own). */
  headers?: Record<string, string>;
}

export class RpcConnection {
  /** The `version` of the `ready` frame, once seen. */
  version: string | undefined;
  /** The `ready` frame itself (protocol versions, frame limits, capabilities), once seen. */
  readyFrame: Record<string, unknown> | undefined;
  /** 2 once `negotiate_protocol` succeeded (see `options.protocolVersion`). */
  protocolVersion: 1 | 2 = 1;
  /** Resolves when the process has exited and its stdout is fully read. */
  readonly exited: Promise<ExitInfo>;
  protected child: ChildProcessWithoutNullStreams | undefined;
  /** The WebSocket of a client that `connect`ed to `pith serve` instead of spawning. */
  private link: SocketLink | undefined;
  private resolveExited!: (info: ExitInfo) => void;
  private exitInfo: ExitInfo | undefined;
  private readonly splitter = new JsonlLineSplitter();
  private readonly reassembler = new FrameReassembler();
  private readonly pending = new Map<string, Pending>();
  private readonly lateWatchers = new Map<string, (err: RpcError) => void>();
  private readonly listeners = new Map<string, Set<AnyHandler>>();
  private readonly anyListeners = new Set<AnyHandler>();
  private stderrText = "";
  private nextId = 1;

  constructor(readonly options: RpcClientOptions = {}) {
    this.exited = new Promise((resolve) => (this.resolveExited = resolve));
  }

  /** Spawns the agent and (unless `waitForReady: false`) waits for its `ready` frame. */
  async start(): Promise<this> {
    if (this.child) throw new RpcClientError("spawn_failed", "RpcClient already started");
    const child = spawnAgent(this.options);
    this.child = child;
    const spawnError = new Promise<never>((_resolve, reject) =>
      child.once("error", (err) => {
        reject(new RpcClientError("spawn_failed", `could not start the agent: ${err.message}`));
        this.onClose({ code: null, signal: null });
      }),
    );
    spawnError.catch(() => undefined);
    child.stdout.on("data", (chunk: Buffer) => this.onStdout(chunk));
    child.stderr.on("data", (chunk: Buffer) => this.onStderr(chunk.toString("utf8")));
    child.stdin.on("error", (err) => this.reportError(err));
    child.on("close", (code, signal) => this.onClose({ code, signal }));
    if (this.options.waitForReady === false) return Promise.race([spawnError, this.spawned(child)]).then(() => this);
    await Promise.race([spawnError, this.waitReady()]);
    if (this.options.protocolVersion === 2) await this.negotiate();
    return this;
  }

  /**
   * Connects to `pith serve` at `url` (`ws://HOST:PORT`, or `ws+unix:/path`) instead of spawning:
   * the same frames, one per WebSocket text message; waits for `ready` like `start`. A refused
   * upgrade (401 wrong token, 403 origin) rejects with `spawn_failed` and the HTTP status.
   */
  async connect(url: string, opts: ConnectOptions = {}): Promise<this> {
    if (this.child || this.link) throw new RpcClientError("spawn_failed", "RpcClient already started");
    // loaded here: hosts that spawn pith never load the WebSocket library
    const { WebSocket } = await import("ws");
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token !== undefined) headers.Authorization = `Bearer ${opts.token}`;
    const ws = new WebSocket(url, { headers, perMessageDeflate: false });
    this.link = ws;
    const opened = new Promise<void>((resolve, reject) => {
      ws.once("open", () => resolve());
      ws.once("unexpected-response", (_req, res) => {
        res.resume();
        reject(new RpcClientError("spawn_failed", `pith serve refused the connection: HTTP ${res.statusCode}`));
        ws.terminate();
      });
      ws.once("error", (err) => reject(new RpcClientError("spawn_failed", `could not connect to ${url}: ${err.message}`)));
    });
    opened.catch(() => undefined);
    // errors before `open` reject `connect`; later ones are reported
    void opened.then(() => ws.on("error", (err) => this.reportError(err)), () => undefined);
    ws.on("message", (data) => this.onLine(String(data)));
    ws.on("close", (code) => this.onClose({ code, signal: null }));
    await opened;
    if (this.options.waitForReady === false) return this;
    await this.waitReady();
    return this;
  }

  private spawned(child: ChildProcessWithoutNullStreams): Promise<void> {
    return new Promise((resolve) => (child.pid !== undefined ? resolve() : child.once("spawn", () => resolve())));
  }

  private async waitReady(): Promise<void> {
    const timeoutMs = this.options.readyTimeoutMs ?? 30_000;
    const timer = sleep(timeoutMs);
    let off: (() => void) | undefined;
    const ready = new Promise<"ready">((resolve) => (off = this.on("ready", () => resolve("ready"))));
    const outcome = await Promise.race([ready, this.exited, timer.promise]);
    timer.cancel();
    off?.();
    if (outcome === "ready") return;
    if (outcome === null) {
      killGroup(this.pid, "SIGKILL");
      throw new RpcClientError("ready_timeout", `no ready frame within ${timeoutMs} ms`, this.stderr);
    }
    throw new RpcClientError("exited", `the agent exited before ready (${describeExit(outcome)})`, this.stderr);
  }

  /** Switches to version 2 framing when `ready` offers it (no line over maxFrameBytes). */
  private async negotiate(): Promise<void> {
    const offered = this.readyFrame?.supportedProtocolVersions;
    if (!Array.isArray(offered) || !offered.includes(2)) return;
    const data = await this.request("negotiate_protocol", { protocolVersion: 2 });
    if (data.protocolVersion === 2) this.protocolVersion = 2;
  }

  /** The child's process id (also its process group id). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  /** Everything the child wrote to stderr (the last 64 KiB). */
  get stderr(): string {
    return this.stderrText;
  }

  /** True between start and exit. */
  get isRunning(): boolean {
    return (this.child !== undefined || this.link !== undefined) && this.exitInfo === undefined;
  }

  /** Subscribes to one outbound frame type; returns the unsubscribe function. */
  on<T extends OutboundFrameType>(type: T, handler: FrameHandler<T>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(handler as AnyHandler);
    return () => set.delete(handler as AnyHandler);
  }

  /** Subscribes to every frame (including ones this client has no type for). */
  onAny(handler: (frame: FrameOf<OutboundFrameType> | AnyFrame) => void): () => void {
    this.anyListeners.add(handler);
    return () => this.anyListeners.delete(handler);
  }

  /** Resolves with the next frame of `type` that matches `predicate`. */
  waitForEvent<T extends OutboundFrameType>(
    type: T,
    opts: { predicate?: (frame: FrameOf<T>) => boolean; timeoutMs?: number } = {},
  ): Promise<FrameOf<T>> {
    return new Promise((resolve, reject) => {
      const timer = opts.timeoutMs === undefined ? undefined : sleep(opts.timeoutMs);
      const done = (fn: () => void) => {
        off();
        offExit();
        timer?.cancel();
        fn();
      };
      const off = this.on(type, (frame) => {
        if (!opts.predicate || opts.predicate(frame)) done(() => resolve(frame));
      });
      const offExit = this.onExit(() =>
        done(() => reject(new RpcClientError("exited", `the agent exited while waiting for ${type}`, this.stderr))),
      );
      void timer?.promise.then(() => done(() => reject(new RpcClientError("timeout", `no ${type} within ${opts.timeoutMs} ms`))));
    });
  }

  /** Writes one raw frame (LF-terminated JSON) to the agent's stdin, or as one WebSocket message. */
  send(frame: object): void {
    if (this.link) {
      if (this.exitInfo || this.link.readyState !== 1) throw new RpcClientError("closed", "the connection to pith serve is closed");
      this.link.send(JSON.stringify(frame));
      return;
    }
    const child = this.child;
    if (!child || this.exitInfo || child.stdin.destroyed || child.stdin.writableEnded) {
      throw new RpcClientError("closed", "the agent process is not running", this.stderr);
    }
    child.stdin.write(JSON.stringify(frame) + "\n");
  }

  /** Sends a command with a fresh `req_<n>` id; resolves with its `data`, rejects with RpcError. */
  request<T extends RpcCommandType>(type: T, params: CommandParams<T>): Promise<RpcResponseData<T>> {
    return this.requestWithId(type, params).promise;
  }

  /** Like `request`, but also returns the id (for late-error watching). */
  protected requestWithId<T extends RpcCommandType>(
    type: T,
    params: CommandParams<T>,
  ): { id: string; promise: Promise<RpcResponseData<T>> } {
    const id = `req_${this.nextId++}`;
    const promise = new Promise<RpcResponseData<T>>((resolve, reject) => {
      const entry: Pending = { command: type, resolve: resolve as (d: unknown) => void, reject };
      const timeoutMs = this.options.requestTimeoutMs;
      if (timeoutMs !== undefined) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RpcClientError("timeout", `${type} (${id}) got no response within ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      try {
        this.send({ ...stripUndefined(params), id, type });
      } catch (err) {
        this.pending.delete(id);
        clearTimeout(entry.timer);
        reject(err);
      }
    });
    return { id, promise };
  }

  /**
   * Calls `onError` when a `success: false` response arrives for `id` after it was already
   * answered (a late prompt failure). Returns the unwatch function.
   */
  protected watchLateError(id: string, onError: (err: RpcError) => void): () => void {
    this.lateWatchers.set(id, onError);
    return () => this.lateWatchers.delete(id);
  }

  /** Calls `fn` once (asynchronously) when the process exits, or soon if it already has. */
  protected onExit(fn: () => void): () => void {
    let active = true;
    void this.exited.then(() => active && fn());
    return () => (active = false);
  }

  /**
   * Shuts down cleanly: closes stdin (pith finishes accepted work and exits 0), waits up to
   * `closeGraceMs`, then SIGTERM and finally SIGKILL to the whole process group.
   */
  async close(): Promise<ExitInfo> {
    if (this.link) {
      // the server aborts the connection's runs and releases its sessions
      if (!this.exitInfo) this.link.close(1000);
      return this.exited;
    }
    const child = this.child;
    if (!child) return { code: null, signal: null };
    if (!this.exitInfo) {
      child.stdin.end();
      const grace = sleep(this.options.closeGraceMs ?? 5_000);
      let info = await Promise.race([this.exited, grace.promise]);
      grace.cancel();
      if (!info) {
        killGroup(child.pid, "SIGTERM");
        const term = sleep(1_000);
        info = await Promise.race([this.exited, term.promise]);
        term.cancel();
        if (!info) killGroup(child.pid, "SIGKILL");
      }
    }
    const info = await this.exited;
    killGroup(child.pid, "SIGKILL"); // anything the agent left behind in its group
    return info;
  }

  /** Subclass hook: sees every frame before listeners do (typed as the protocol says, like `on`). */
  protected handleFrame(_frame: OutboundFrame): void {}

  /** Subclass hook: the process has exited. */
  protected handleExit(): void {}

  protected reportError(error: unknown): void {
    if (this.options.onError) this.options.onError(error);
    else console.error("[pith client]", error);
  }

  private onStdout(chunk: Buffer): void {
    this.onLines(this.splitter.push(chunk));
  }

  /** Oversized lines (over 64 MiB) are dropped by the splitter, like foreign output. */
  private onLines(items: LineItem[]): void {
    for (const item of items) if ("line" in item) this.onLine(item.line);
  }

  private onLine(line: string): void {
    const parsed = parseFrameLine(line) as AnyFrame | undefined;
    if (!parsed) return;
    let frame: AnyFrame | undefined;
    try {
      frame = this.reassembler.push(parsed);
    } catch (err) {
      this.reportError(err);
      return;
    }
    if (!frame) return;
    if (frame.type === "ready" && typeof frame.version === "string") {
      this.version = frame.version;
      this.readyFrame = frame;
    }
    if (frame.type === "response") this.settle(frame);
    // Not validated: the client trusts the agent's frames to match the protocol types.
    this.guard(() => this.handleFrame(frame as OutboundFrame));
    for (const handler of [...(this.listeners.get(frame.type) ?? [])]) this.guard(() => handler(frame));
    for (const handler of [...this.anyListeners]) this.guard(() => handler(frame));
  }

  private settle(frame: AnyFrame): void {
    const id = frame.id;
    if (typeof id !== "string") return;
    const entry = this.pending.get(id);
    if (!entry) {
      if (frame.success === false) this.lateWatchers.get(id)?.(new RpcError(String(frame.error), String(frame.command), id));
      return;
    }
    this.pending.delete(id);
    clearTimeout(entry.timer);
    if (frame.success === true) entry.resolve(frame.data);
    else entry.reject(new RpcError(String(frame.error), String(frame.command ?? entry.command), id));
  }

  private guard(fn: () => void): void {
    try {
      fn();
    } catch (err) {
      this.reportError(err);
    }
  }

  private onStderr(text: string): void {
    this.stderrText = (this.stderrText + text).slice(-STDERR_CAP);
    if (this.options.onStderr) this.guard(() => this.options.onStderr!(text));
  }

  private onClose(info: ExitInfo): void {
    if (this.exitInfo) return;
    this.onLines(this.splitter.end());
    this.exitInfo = info;
    const error = new RpcClientError("exited", `the agent exited (${describeExit(info)})`, this.stderr);
    for (const [id, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(error);
      this.pending.delete(id);
    }
    this.guard(() => this.handleExit());
    this.resolveExited(info);
  }
}

function describeExit(info: ExitInfo): string {
  return info.signal ? `signal ${info.signal}` : `code ${info.code}`;
}

function stripUndefined(params: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== undefined) out[k] = v;
  return out;
}
