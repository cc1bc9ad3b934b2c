// `fetch` over Node's own http/https clients, with one keep-alive connection pool per process.
// What the `openai` client needs of fetch and no more: a method, headers, a string body, an abort
// signal; a Response whose body streams as the bytes arrive. Node's global fetch does the same
// work through the WHATWG Request/Response machinery and costs several times more CPU per
// request; the HTTP protocol itself stays Node's (node:http parses, pools and frames).
//
// Errors keep the shape of the platform fetch: a failure before the response is a
// `TypeError("fetch failed")` with the network error as its cause; a body cut before its end
// is a `TypeError("terminated")` with the cause; an abort is the signal's reason (an
// `AbortError` DOMException by default).
import http from "node:http";
import type { IncomingMessage } from "node:http";
import type https from "node:https";

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

export async function httpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(typeof input === "string" || input instanceof URL ? input : input.url);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) throw abortReason(signal);
  const body = init.body;
  if (body !== undefined && body !== null && typeof body !== "string") throw new TypeError("httpFetch sends string bodies only");
  const { request, agent } = await transport(url);
  const headers = plainHeaders(init.headers);
  if (typeof body === "string") headers["content-length"] = String(Buffer.byteLength(body));
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
    req.end(body ?? undefined);
  });
}
