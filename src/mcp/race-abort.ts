// Waiting for something that may take long, while staying abortable: the caller stops waiting
// at once when its signal fires; the work itself goes on (it is bounded elsewhere).
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
