// Abort helpers: one AbortSignal per run, passed explicitly.

export const ABORT_MESSAGE = "Request was aborted";

export class AbortError extends Error {
  constructor(message = ABORT_MESSAGE) {
    super(message);
    this.name = "AbortError";
  }
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && (err.name === "AbortError" || err instanceof AbortError);
}

/** Resolves after `ms`, or rejects with AbortError when `signal` fires first. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new AbortError());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new AbortError());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** A signal that fires when any of `signals` fires. */
export function anySignal(signals: (AbortSignal | undefined)[]): AbortSignal {
  const controller = new AbortController();
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    s.addEventListener("abort", () => controller.abort(s.reason), { once: true });
  }
  return controller.signal;
}

/**
 * `work`, or a rejection with `onTimeout()` once `ms` have passed (the work itself is not stopped:
 * use this where a stuck operation, such as file-system work on a hung mount, cannot be aborted).
 */
export function withTimeout<T>(work: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
    timer.unref?.();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Resolves like `p`, or rejects with an AbortError carrying `message` as soon as `signal` fires:
 * waiting for something that may take long while staying abortable (the caller stops waiting at
 * once; the work goes on, bounded elsewhere).
 */
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
