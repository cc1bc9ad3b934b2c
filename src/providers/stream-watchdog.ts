// Guards one provider request against a peer that stops sending: a limit
// on the wait for the first data of the reply and one on the silence between chunks. When
// either runs out the request is aborted and `reason` says why; the adapter turns that into an
// `error` reply (retryable: the message says "timed out").

export interface StreamTimeouts {
  /** Longest wait from sending the request to the first data of the reply; 0 or unset = none. */
  firstByteTimeoutMs?: number;
  /** Longest silence between two chunks once data flows; 0 or unset = none. */
  idleTimeoutMs?: number;
}

export function firstByteTimeoutMessage(ms: number): string {
  return `Provider stream timed out: no data within ${ms} ms of sending the request (retry.firstByteTimeoutMs)`;
}

export function idleTimeoutMessage(ms: number): string {
  return `Provider stream timed out: no data for ${ms} ms in the middle of the reply (retry.idleTimeoutMs)`;
}

export class StreamWatchdog {
  /** Aborted when the caller aborts or a limit runs out: give it to the request. */
  readonly signal: AbortSignal;
  /** Why a limit aborted the request; undefined while none did. */
  reason: string | undefined;
  private readonly controller = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private flowing = false;
  /** Between a chunk's arrival and the next read: time spent by the consumer, not the peer. */
  private consuming = false;
  /** Peer chunks received so far: a due limit checks whether one arrived while it waited. */
  private chunks = 0;
  private stopped = false;
  private readonly onOuterAbort: () => void;

  constructor(
    private readonly limits: StreamTimeouts,
    private readonly outer?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.onOuterAbort = () => this.abort(outer?.reason);
    if (outer?.aborted) this.abort(outer.reason);
    else outer?.addEventListener("abort", this.onOuterAbort, { once: true });
    this.arm(limits.firstByteTimeoutMs, firstByteTimeoutMessage);
  }

  /** About to wait for the next chunk: once data flows, the idle limit runs from now. */
  waiting(): void {
    if (!this.flowing) return; // the first-byte limit has been running since the request
    this.consuming = false;
    if (this.timer !== undefined) this.timer.refresh();
    else this.arm(this.limits.idleTimeoutMs, idleTimeoutMessage);
  }

  /**
   * A chunk arrived. Peer data meets the first-byte limit; until the next `waiting()` the reply
   * is being consumed, and a slow consumer is never mistaken for a silent peer.
   */
  received(isPeerData: boolean): void {
    if (isPeerData) this.chunks++;
    if (!this.flowing) {
      if (!isPeerData) return;
      this.flowing = true;
      if (this.timer !== undefined) clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.consuming = true;
  }

  /** The request is over: no limit applies any more. */
  stop(): void {
    this.stopped = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.outer?.removeEventListener("abort", this.onOuterAbort);
  }

  private arm(ms: number | undefined, message: (ms: number) => string): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    if (ms === undefined || !Number.isFinite(ms) || ms <= 0) return;
    const timer = setTimeout(() => {
      if (this.consuming) {
        timer.refresh();
        return;
      }
      // A limit runs out only when the peer really was silent: after a stall of this process
      // (a busy machine, a long GC), data may sit unread on the socket while the timer is
      // already due. Let one round of I/O deliver it before deciding.
      const seen = this.chunks;
      setImmediate(() => {
        if (this.timer !== timer || this.stopped) return; // re-armed, cleared or over meanwhile
        if (this.chunks !== seen || this.consuming) {
          timer.refresh();
          return;
        }
        this.timer = undefined;
        this.reason = message(ms);
        this.abort(new Error(this.reason));
      });
    }, ms);
    timer.unref?.();
    this.timer = timer;
  }

  private abort(reason: unknown): void {
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }
}
