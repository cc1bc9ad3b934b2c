// A push-based async iterable: producers `push`, one consumer iterates. Used for provider
// streams so that adapters can emit from callbacks and the loop can `for await`.

export class EventStream<T> implements AsyncIterable<T> {
  private queue: T[] = [];
  private waiting: ((r: IteratorResult<T>) => void) | undefined;
  private closed = false;

  push(value: T): void {
    if (this.closed) return;
    const w = this.waiting;
    if (w) {
      this.waiting = undefined;
      w({ value, done: false });
    } else {
      this.queue.push(value);
    }
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    const w = this.waiting;
    this.waiting = undefined;
    w?.({ value: undefined, done: true });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => {
        if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift() as T, done: false });
        if (this.closed) return Promise.resolve({ value: undefined, done: true });
        return new Promise((resolve) => (this.waiting = resolve));
      },
      return: () => {
        this.closed = true;
        this.queue = [];
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}
