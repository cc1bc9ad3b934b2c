// A signal that fires when a parent signal does or a time limit passes. Built from a plain
// AbortController and a timer: on Node 20, a signal from AbortSignal.any() over
// AbortSignal.timeout() can be garbage-collected before its time comes, and then never fires.

export interface Deadline {
  readonly signal: AbortSignal;
  /** Clears the timer and the listener on the parent (call once the work is done). */
  done(): void;
}

export class DeadlineError extends Error {
  constructor(ms: number) {
    super(`no answer within ${ms} ms`);
    this.name = "TimeoutError";
  }
}

export function deadline(ms: number, parent?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DeadlineError(ms)), ms);
  timer.unref?.();
  const onParent = () => controller.abort(parent?.reason);
  if (parent?.aborted) onParent();
  else parent?.addEventListener("abort", onParent, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      parent?.removeEventListener("abort", onParent);
    },
  };
}

/** Runs `work` under a deadline and releases it afterwards. */
export async function withDeadline<T>(ms: number, parent: AbortSignal | undefined, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const d = deadline(ms, parent);
  try {
    return await work(d.signal);
  } finally {
    d.done();
  }
}
