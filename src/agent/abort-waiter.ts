// Awaits the next item of an async iterator, or the abort of a signal, whichever comes first.
// A provider that ignores its signal therefore cannot keep an aborted run alive.

export const ABORTED: unique symbol = Symbol("aborted");

export class AbortWaiter {
  private wake: ((value: typeof ABORTED) => void) | undefined;
  private readonly onAbort = () => this.wake?.(ABORTED);

  constructor(private readonly signal: AbortSignal) {
    signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /** One promise per item (no reactions pile up on a long-lived promise, unlike Promise.race). */
  next<T>(iterator: AsyncIterator<T>): Promise<IteratorResult<T> | typeof ABORTED> {
    if (this.signal.aborted) return Promise.resolve(ABORTED);
    return new Promise((resolve, reject) => {
      this.wake = resolve;
      iterator.next().then(resolve, reject);
    });
  }

  dispose(): void {
    this.wake = undefined;
    this.signal.removeEventListener("abort", this.onAbort);
  }
}

/** Asks an iterator we stop reading to clean up, without waiting for it. */
export function closeIterator(iterator: AsyncIterator<unknown> | undefined): void {
  if (!iterator?.return) return;
  // A failing cleanup cannot change the message we already have: nothing to report.
  Promise.resolve()
    .then(() => iterator.return?.())
    .then(undefined, () => undefined);
}
