// Abort helpers of the MCP layer. `raceAbort`: waiting for something that may take long while
// staying abortable (the caller stops waiting at once; the work goes on, bounded elsewhere).
// `followSignal`: a per-call child signal, because the SDK leaves its abort listener on the
// signal it is given; the caller's signal (shared by a batch of calls) keeps none of them.
import { AbortError } from "../shared/abort.js";

/** Resolves like `p`, or rejects with `message` as soon as `signal` fires. */
export function raceAbort<T>(p: Promise<T>, signal: AbortSignal | undefined, message: string): Promise<T> {
  if (!signal) return p;
  if (signal.aborted) return Promise.reject(new AbortError(message));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError(message));
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/** A fresh signal that fires when `parent` does, until `dispose()` detaches it. */
export function followSignal(parent: AbortSignal): { signal: AbortSignal; dispose: () => void } {
  const child = new AbortController();
  if (parent.aborted) child.abort(parent.reason);
  const onAbort = () => child.abort(parent.reason);
  parent.addEventListener("abort", onAbort, { once: true });
  return { signal: child.signal, dispose: () => parent.removeEventListener("abort", onAbort) };
}
