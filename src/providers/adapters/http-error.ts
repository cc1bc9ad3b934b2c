// Turns whatever the AI SDK threw into pith's error text: `"<status> <response body>"` for
// HTTP errors (so retry classification and overflow detection see provider text), the
// network error text for cuts, plus a retry-after hint in milliseconds when the server sent one.

export interface ProviderErrorInfo {
  message: string;
  retryAfterMs?: number;
}

interface ApiCallErrorLike {
  statusCode?: number;
  responseBody?: string;
  responseHeaders?: Record<string, string>;
  message: string;
  cause?: unknown;
}

function isApiCallError(err: unknown): err is ApiCallErrorLike & Error {
  return err instanceof Error && typeof (err as ApiCallErrorLike).statusCode === "number";
}

export function describeProviderError(err: unknown, now: number = Date.now()): ProviderErrorInfo {
  if (isApiCallError(err) && (err.statusCode ?? 0) >= 200 && (err.statusCode ?? 0) < 300) {
    // "Failed to process successful response": the body broke mid-stream; the cause says why.
    return { message: err.cause !== undefined ? plainMessage(err.cause) : err.message };
  }
  if (isApiCallError(err)) {
    const body = (err.responseBody ?? "").trim();
    const message = `${err.statusCode} ${body.length > 0 ? body : `status code (no body)`}`;
    const retryAfterMs = retryAfterFromHeaders(err.responseHeaders, now);
    return retryAfterMs === undefined ? { message } : { message, retryAfterMs };
  }
  return { message: plainMessage(err) };
}

/** `terminated: other side closed`, `Cannot connect to API: connect ECONNREFUSED …`, or a stream error object as JSON. */
function plainMessage(err: unknown): string {
  if (err instanceof Error) {
    const base = err.message || err.name;
    const cause = (err as { cause?: unknown }).cause;
    if (cause instanceof Error) {
      const code = (cause as { code?: unknown }).code;
      const extra = [cause.message, typeof code === "string" ? code : ""].filter((s) => s && !base.includes(s));
      if (extra.length > 0) return `${base}: ${extra.join(" ")}`;
    }
    return base;
  }
  if (typeof err === "string") return err;
  if (err && typeof err === "object") {
    const inner = (err as { error?: { message?: unknown; type?: unknown } }).error;
    const json = safeJson(err);
    if (inner && typeof inner.message === "string") return `${typeof inner.type === "string" ? inner.type + ": " : ""}${inner.message} ${json}`;
    const msg = (err as { message?: unknown }).message;
    if (typeof msg === "string") return `${msg} ${json}`;
    return json;
  }
  return String(err);
}

function safeJson(v: unknown): string {
  try {
    return JSON.stringify(v) ?? String(v);
  } catch (err) {
    void err;
    return String(v);
  }
}

/** `retry-after-ms` (ms) wins over `retry-after` (seconds or an HTTP date). */
export function retryAfterFromHeaders(headers: Record<string, string> | undefined, now: number = Date.now()): number | undefined {
  if (!headers) return undefined;
  const get = (name: string) => {
    for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === name) return v;
    return undefined;
  };
  const ms = Number(get("retry-after-ms"));
  if (get("retry-after-ms") !== undefined && Number.isFinite(ms) && ms >= 0) return Math.round(ms);
  const ra = get("retry-after");
  if (ra === undefined) return undefined;
  const seconds = Number(ra);
  if (ra.trim() !== "" && Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
  const date = Date.parse(ra);
  return Number.isFinite(date) ? Math.max(0, date - now) : undefined;
}
