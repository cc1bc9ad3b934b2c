// `fetch` over Node's own http/https clients, with one keep-alive connection pool per process.
// What the `openai` client needs of fetch and no more: a method, headers, a string body, an abort
// signal; a Response whose body streams as the bytes arrive. Node's global fetch does the same
// work through the WHATWG Request/Response machinery and costs several times more CPU per
// request; the HTTP protocol itself stays Node's (node:http parses, pools and frames).
//
// A body given as parts (`bodyParts`, the pieces of one JSON text) is written piece by piece with
// backpressure, a big piece in slices, so a 50 MiB request never sits in memory twice.
//
// Errors keep the shape of the platform fetch: a failure before the response is a
// `TypeError("fetch failed")` with the network error as its cause; a body cut before its end
// is a `TypeError("terminated")` with the cause; an abort is the signal's reason (an
// `AbortError` DOMException by default).
import http from "node:http";
import type { IncomingMessage } from "node:http";
import type https from "node:https";
import { sliceEnd } from "../../shared/json-pieces.js";

/** A request body handed over as consecutive text pieces; httpFetch empties it once taken. */
export interface BodyParts {
  parts: readonly string[] | undefined;
}

/** What httpFetch reads of its init: RequestInit plus the body as parts. */
export interface HttpFetchInit extends RequestInit {
  /**
   * The body as consecutive text pieces (used instead of `body`). The holder is emptied when the
   * pieces are taken, so whoever keeps the request options does not keep the body alive.
   */
  bodyParts?: BodyParts;
}

/** A big body piece goes to the socket in slices of about this many UTF-16 units. */
const SLICE = 1024 * 1024;

let httpAgent: http.Agent | undefined;
let httpsModule: typeof https | undefined;
let httpsAgent: https.Agent | undefined;

async function transport(url: URL): Promise<{ request: typeof http.request; agent: http.Agent }> {
  if (url.protocol === "http:") return { request: http.request, agent: (httpAgent ??= new http.Agent({ keepAlive: true })) };
  if (url.protocol !== "https:") throw new TypeError("fetch failed", { cause: new Error(`unsupported protocol ${url.protocol}`) });
  httpsModule ??= (await import("node:https")).default;
  return { request: httpsModule.request, agent: (httpsAgent ??= new httpsModule.Agent({ keepAlive: true })) };
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("This operation was aborted", "AbortError");
}

function plainHeaders(init: RequestInit["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!init) return out;
  if (init instanceof Headers) init.forEach((value, name) => (out[name] = value));
  else if (Array.isArray(init)) for (const [name, value] of init) out[name.toLowerCase()] = value;
  else for (const [name, value] of Object.entries(init as Record<string, string>)) out[name.toLowerCase()] = value;
  return out;
}

/** The response body as an async iterable that reports a cut as `terminated`. */
async function* bodyOf(res: IncomingMessage, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of res) yield chunk as Buffer;
  } catch (err) {
    throw signal?.aborted ? abortReason(signal) : new TypeError("terminated", { cause: err });
  }
  if (!res.complete) throw new TypeError("terminated", { cause: new Error("other side closed") });
}

/** The body's pieces: `bodyParts`, else the string body. */
function bodyPieces(init: HttpFetchInit): readonly string[] | undefined {
  if (init.bodyParts) {
    const parts = init.bodyParts.parts;
    init.bodyParts.parts = undefined;
    if (!parts) throw new TypeError("httpFetch: the body parts were already sent");
    return parts;
  }
  const body = init.body;
  if (body === undefined || body === null) return undefined;
  if (typeof body !== "string") throw new TypeError("httpFetch sends string bodies only");
  return [body];
}

/** Writes the pieces, slicing big ones (never between the two halves of a surrogate pair), waiting for drain. */
async function writeBody(req: http.ClientRequest, pieces: readonly string[]): Promise<void> {
  for (const piece of pieces) {
    for (let at = 0; at < piece.length; ) {
      const end = sliceEnd(piece, at, SLICE);
      const ok = req.write(at === 0 && end === piece.length ? piece : piece.slice(at, end));
      at = end;
      if (!ok && !(await drained(req))) return;
    }
  }
  req.end();
}

/** Resolves true on `drain`, false when the request is over (error, abort, close) first. */
function drained(req: http.ClientRequest): Promise<boolean> {
  if (req.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      req.off("drain", onDrain);
      req.off("close", onClose);
      resolve(ok);
    };
    const onDrain = done(true);
    const onClose = done(false);
    req.once("drain", onDrain);
    req.once("close", onClose);
  });
}

export async function httpFetch(input: string | URL | Request, init: HttpFetchInit = {}): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  const pieces = bodyPieces(init);
  const { request, agent } = await transport(url);
  const headers = plainHeaders(init.headers);
  if (pieces) headers["content-length"] = String(pieces.reduce((n, p) => n + Buffer.byteLength(p), 0));
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers, agent }, (res) => {
      const responseHeaders = new Headers();
      for (let i = 0; i < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i], res.rawHeaders[i + 1]);
      const status = res.statusCode ?? 0;
      const noBody = status === 204 || status === 304 || init.method === "HEAD";
      resolve(new Response(noBody ? null : (bodyOf(res, signal) as unknown as ReadableStream), { status, statusText: res.statusMessage, headers: responseHeaders }));
    });
    const onAbort = () => req.destroy(signal ? (abortReason(signal) as Error) : undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    req.once("close", () => signal?.removeEventListener("abort", onAbort));
    req.once("error", (err) => reject(signal?.aborted ? abortReason(signal) : new TypeError("fetch failed", { cause: err })));
    if (pieces) void writeBody(req, pieces);
    else req.end();
  });
}
