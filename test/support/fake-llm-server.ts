// A scripted SSE HTTP server on 127.0.0.1 that speaks OpenAI chat completions and Anthropic
// messages well enough for the real @ai-sdk packages. Tests enqueue replies, run pith against
// `url`, then assert on `requests` (what the fake received), not only on what came back.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { anthropicFrames } from "./fake-llm-anthropic.js";
import { openaiFrames } from "./fake-llm-openai.js";
import { responsesFrames } from "./fake-llm-responses.js";
import { PromptCacheSim, type CacheBill } from "./prompt-cache-sim.js";

export interface FakeToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

export interface FakeUsage {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
  /** The part of cacheWrite written with a 1-hour ttl (Anthropic's `cache_creation`). */
  cacheWrite1h?: number;
}

/** One scripted reply. Every field is optional; `{}` replies with an empty text message. */
export interface FakeReply {
  text?: string | string[];
  thinking?: string | string[];
  /** Anthropic thinking signature (default: `sig-<n>`). */
  signature?: string;
  toolCalls?: FakeToolCall[];
  usage?: FakeUsage;
  /** Wire stop reason; default `end_turn`/`stop`, or `tool_use`/`tool_calls` when toolCalls are present. */
  stopReason?: string;
  /** Delay before the first byte (status line included). */
  delayMs?: number;
  /** Delay between SSE chunks. */
  chunkDelayMs?: number;
  error?: { status: number; body?: object | string; headers?: Record<string, string> };
  /** Send headers and any scripted chunks, then never finish until the client goes away. */
  hang?: boolean;
  /** End the response cleanly after the content chunks, without any finish/stop chunks. */
  endEarly?: boolean;
  /** Destroy the socket after this many SSE chunks. */
  cutAfterChunks?: number;
  /** Generate N small text deltas (`d0 `, `d1 `, ...) written in big batches (benchmarks). */
  deltas?: number;
  /** Serve this reply only to a request it accepts (concurrent sessions); default: any request. */
  match?: (request: FakeRequest) => boolean;
}

export interface FakeRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or the raw text when it is not JSON, or undefined when empty. */
  body: any;
  /** Size of the body in bytes. */
  bytes?: number;
}

export interface FakeLlm {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:PORT/v1`. */
  url: string;
  port: number;
  requests: FakeRequest[];
  enqueue(...replies: FakeReply[]): void;
  /** Replies not yet consumed. */
  pending(): number;
  /** Ids listed by `GET /v1/models`. */
  setModels(ids: string[]): void;
  waitForRequests(n: number, timeoutMs?: number): Promise<FakeRequest[]>;
  /** With `promptCache`: the simulated bill of each Anthropic request, in order. */
  bills: CacheBill[];
  close(): Promise<void>;
}

export interface FakeLlmOptions {
  models?: string[];
  /** Simulate Anthropic's prompt-cache billing: `/messages` replies without scripted usage report the simulated usage. */
  promptCache?: boolean;
}

/** The SSE chunks of one reply (each already framed, ending in a blank line). */
export type FrameBuilder = (reply: FakeReply, request: FakeRequest, seq: number) => string[];

const EXHAUSTED = "fake-llm: script exhausted";

export async function startFakeLlmServer(opts: FakeLlmOptions = {}): Promise<FakeLlm> {
  const queue: FakeReply[] = [];
  const requests: FakeRequest[] = [];
  const waiters: (() => void)[] = [];
  const sockets = new Set<Socket>();
  let models = opts.models ?? ["fake-model"];
  let seq = 0;
  const cacheSim = new PromptCacheSim();

  const server: Server = createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain" });
      res.end(`fake-llm internal error: ${String(err)}`);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readRequest(req);
    requests.push(request);
    for (const w of waiters.splice(0)) w();
    if (request.method === "GET" && request.path.endsWith("/models")) {
      const data = models.map((id) => ({ id, object: "model", created: 0, owned_by: "fake-llm" }));
      return sendJson(res, 200, { object: "list", data });
    }
    const builder = builderFor(request.path);
    if (request.method !== "POST" || !builder) return sendJson(res, 404, { error: { message: `fake-llm: no route ${request.method} ${request.path}` } });
    const at = queue.findIndex((r) => !r.match || r.match(request));
    let reply = at === -1 ? undefined : queue.splice(at, 1)[0];
    if (!reply) return sendJson(res, 500, { error: { type: "fake_llm", message: EXHAUSTED } });
    if (opts.promptCache && builder === anthropicFrames && !reply.usage && !reply.error) {
      const b = cacheSim.bill(request.body, request.bytes ?? 0, outputBytes(reply));
      reply = { ...reply, usage: { input: b.input, output: b.output, cacheRead: b.cacheRead, cacheWrite: b.cacheWrite, cacheWrite1h: b.cacheWrite1h } };
    }
    seq += 1;
    await play(res, reply, builder(reply, request, seq));
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    enqueue: (...replies) => void queue.push(...replies),
    pending: () => queue.length,
    setModels: (ids) => void (models = ids),
    waitForRequests: (n, timeoutMs = 5000) => waitFor(requests, waiters, n, timeoutMs),
    bills: cacheSim.bills,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

function builderFor(path: string): FrameBuilder | undefined {
  if (path.endsWith("/chat/completions")) return openaiFrames;
  if (path.endsWith("/messages")) return anthropicFrames;
  if (path.endsWith("/responses")) return responsesFrames;
  return undefined;
}

async function play(res: ServerResponse, reply: FakeReply, frames: string[]): Promise<void> {
  if (reply.delayMs) await delay(reply.delayMs);
  if (res.destroyed) return;
  if (reply.error) {
    const { status, body, headers } = reply.error;
    const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
    res.writeHead(status, { "content-type": typeof body === "string" ? "text/plain" : "application/json", ...headers });
    res.end(text);
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.flushHeaders();
  const cut = reply.cutAfterChunks;
  const limit = cut !== undefined ? Math.min(cut, frames.length) : frames.length;
  if (!reply.chunkDelayMs) {
    writeBatched(res, frames.slice(0, limit));
  } else {
    for (let i = 0; i < limit && !res.destroyed; i++) {
      if (i > 0) await delay(reply.chunkDelayMs);
      res.write(frames[i]);
    }
  }
  if (cut !== undefined) {
    // Let the written chunks reach the client before the connection dies.
    await delay(20);
    res.socket?.destroy();
    return;
  }
  if (reply.hang) return; // the client's abort closes the socket; close() destroys leftovers
  res.end();
}

/** Write frames in ~256 KiB batches: 20,000 deltas cost a handful of syscalls. */
function writeBatched(res: ServerResponse, frames: string[]): void {
  let batch: string[] = [];
  let size = 0;
  for (const f of frames) {
    batch.push(f);
    size += f.length;
    if (size >= 262_144) {
      res.write(batch.join(""));
      batch = [];
      size = 0;
    }
  }
  if (batch.length > 0) res.write(batch.join(""));
}

async function readRequest(req: IncomingMessage): Promise<FakeRequest> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const raw = Buffer.concat(chunks).toString("utf8");
  let body: unknown = undefined;
  if (raw.length > 0) {
    try {
      body = JSON.parse(raw);
    } catch (err) {
      body = raw;
      void err;
    }
  }
  const path = (req.url ?? "/").split("?")[0];
  return { method: req.method ?? "GET", path, headers: { ...req.headers }, body, bytes: Buffer.byteLength(raw) };
}

/** What a reply makes the model write: text, thinking and tool calls. */
function outputBytes(reply: FakeReply): number {
  const parts = [...asChunks(reply.text), ...asChunks(reply.thinking), ...(reply.toolCalls ?? []).map((c) => c.name + argsText(c.arguments))];
  return Buffer.byteLength(parts.join(""));
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}

function waitFor(requests: FakeRequest[], waiters: (() => void)[], n: number, timeoutMs: number): Promise<FakeRequest[]> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`fake-llm: ${requests.length}/${n} requests after ${timeoutMs} ms`)), timeoutMs);
    const check = () => {
      if (requests.length >= n) {
        clearTimeout(timer);
        resolve(requests.slice());
      } else {
        waiters.push(check);
      }
    };
    check();
  });
}

function delay(ms: number): Promise<void> {
  // Unref: a reply scripted to wait minutes must not keep the test process alive.
  return new Promise((r) => setTimeout(r, ms).unref());
}

/** Helpers shared by the wire builders. */
export function asChunks(v: string | string[] | undefined): string[] {
  if (v === undefined) return [];
  return typeof v === "string" ? (v.length > 0 ? [v] : []) : v;
}

export function argsText(a: Record<string, unknown> | string): string {
  return typeof a === "string" ? a : JSON.stringify(a);
}

/** Split a JSON argument string into ~3 fragments so clients see real deltas. */
export function fragments(s: string): string[] {
  if (s.length < 6) return [s];
  const step = Math.ceil(s.length / 3);
  const out: string[] = [];
  for (let i = 0; i < s.length; i += step) out.push(s.slice(i, i + step));
  return out;
}

export function deltaTexts(n: number | undefined): string[] {
  const out: string[] = [];
  for (let i = 0; i < (n ?? 0); i++) out.push(`d${i} `);
  return out;
}
