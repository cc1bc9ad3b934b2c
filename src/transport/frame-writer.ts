// Writes one JSON frame per line to a Writable (protocol.md §1.2, design.md §4.5): frames never
// interleaved or reordered, U+2028/U+2029 escaped, backpressure honoured with an in-memory queue,
// and a closed or broken stream (EPIPE) reported once instead of thrown.
//
// Batching: the frames written during one turn of the event loop go out together, in one write
// of the stream (one syscall for a pipe or socket), at the end of that turn (setImmediate), so a
// lone frame waits at most one turn. Small frames are joined into one string; a frame of
// JOIN_LIMIT bytes or more is handed over as it is (never copied into a bigger string), in the
// same corked write. Any Writable works (stdout, a memory pipe, a WebSocket stream).
import type { Writable } from "node:stream";

export interface FrameWriterOptions {
  /** Called once, with the first write error (EPIPE, closed stdout...). Later frames are dropped. */
  onError?: (err: Error) => void;
  /** Gather the frames of one event-loop turn into one write (default true); false writes each frame at once. */
  batch?: boolean;
}

const SEPARATORS = /[\u2028\u2029]/g;
/** A frame at least this long (UTF-16 units) is never joined with others: no copy of big payloads. */
const JOIN_LIMIT = 64 * 1024;
/** Joined strings stop growing past this size (a backlog after `drain` becomes several chunks of one write). */
const MAX_JOINED = 1024 * 1024;

/** JSON text of one frame plus its LF, with raw U+2028/U+2029 escaped (still valid JSON). */
export function serializeFrame(frame: object): string {
  const text = JSON.stringify(frame);
  if (typeof text !== "string") throw new TypeError("Frame is not serialisable to JSON");
  // `includes` answers at once for a one-byte string; the regex would walk a multi-MiB answer
  if (!text.includes("\u2028") && !text.includes("\u2029")) return text + "\n";
  return text.replace(SEPARATORS, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029")) + "\n";
}

export class FrameWriter {
  private readonly stream: Writable;
  private readonly onError: ((err: Error) => void) | undefined;
  private readonly batch: boolean;
  /** Frames not yet handed to the stream, oldest first from `queueHead`. */
  private queue: string[] = [];
  private queueHead = 0;
  private queuedBytes = 0;
  private tickScheduled = false;
  private waitingForDrain = false;
  private outstandingWrites = 0;
  private closedFlag = false;
  private errorReported = false;
  private drainWaiters: Array<() => void> = [];
  private flushWaiters: Array<() => void> = [];
  private readonly onTick = () => {
    this.tickScheduled = false;
    this.pump();
  };

  constructor(stream: Writable, options: FrameWriterOptions = {}) {
    this.stream = stream;
    this.onError = options.onError;
    this.batch = options.batch ?? true;
    stream.on("error", (err) => this.fail(err));
    stream.on("close", () => this.fail(undefined));
  }

  /** True once the stream failed or closed: frames are dropped from then on. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** About how many bytes are accepted but not yet handed to the OS (our queue plus the stream's own buffer). */
  get pendingBytes(): number {
    return this.queuedBytes + (this.closedFlag ? 0 : this.stream.writableLength);
  }

  /** Serialises and writes one frame. Throws only if the frame cannot be serialised. */
  write(frame: object): void {
    this.writeSerialized(serializeFrame(frame));
  }

  /** Writes one line already produced by `serializeFrame` (framing that measures lines first). */
  writeSerialized(text: string): void {
    if (this.closedFlag) return;
    this.queue.push(text);
    this.queuedBytes += text.length;
    if (this.waitingForDrain) return;
    if (!this.batch) this.pump();
    else if (!this.tickScheduled) {
      this.tickScheduled = true;
      setImmediate(this.onTick);
    }
  }

  /** Resolves when the in-memory queue is empty (the stream accepted everything). */
  whenDrained(): Promise<void> {
    if (this.isDrained()) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Writes what is batched now and resolves when every frame so far has been handed to the OS (or the stream died). */
  flush(): Promise<void> {
    if (!this.waitingForDrain) this.pump();
    if (this.isFlushed()) return Promise.resolve();
    return new Promise((resolve) => this.flushWaiters.push(resolve));
  }

  private isDrained(): boolean {
    return this.closedFlag || (!this.waitingForDrain && this.queue.length === this.queueHead);
  }

  private isFlushed(): boolean {
    return this.closedFlag || (this.isDrained() && this.outstandingWrites === 0);
  }

  /**
   * Hands every queued frame to the stream in one corked write (one writev), then waits for
   * `drain` if the stream is over its high-water mark: later frames queue here meanwhile.
   */
  private pump(): void {
    if (this.closedFlag || this.queue.length === this.queueHead) return;
    let accepted = true;
    if (this.batch) this.stream.cork();
    try {
      while (!this.closedFlag && this.queue.length > this.queueHead) accepted = this.send(this.takeGroup());
    } finally {
      if (this.batch) this.stream.uncork();
    }
    this.queue = [];
    this.queueHead = 0;
    if (!accepted && !this.closedFlag) {
      this.waitingForDrain = true;
      this.stream.once("drain", () => this.onDrain());
    }
    this.settle();
  }

  /** The next frame, or the run of small frames from the head of the queue joined into one string. */
  private takeGroup(): string {
    const first = this.queue[this.queueHead++];
    this.queuedBytes -= first.length;
    if (!this.batch || first.length >= JOIN_LIMIT) return first;
    let end = this.queueHead;
    let size = first.length;
    while (end < this.queue.length && this.queue[end].length < JOIN_LIMIT && size < MAX_JOINED) size += this.queue[end++].length;
    if (end === this.queueHead) return first;
    const parts = this.queue.slice(this.queueHead - 1, end);
    this.queuedBytes -= size - first.length;
    this.queueHead = end;
    return parts.join("");
  }

  /** One chunk to the stream; false when the stream wants us to wait for `drain`. */
  private send(text: string): boolean {
    this.outstandingWrites++;
    try {
      return this.stream.write(text, (err) => this.written(err));
    } catch (err) {
      this.outstandingWrites--;
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return true;
    }
  }

  private written(err: Error | null | undefined): void {
    this.outstandingWrites--;
    if (err) this.fail(err);
    this.settle();
  }

  private onDrain(): void {
    this.waitingForDrain = false;
    this.pump();
  }

  private fail(err: Error | undefined): void {
    if (err && !this.errorReported) {
      this.errorReported = true;
      this.onError?.(err);
    }
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.queue = [];
    this.queueHead = 0;
    this.queuedBytes = 0;
    this.waitingForDrain = false;
    this.settle();
  }

  private settle(): void {
    if (this.isDrained()) for (const resolve of this.drainWaiters.splice(0)) resolve();
    if (this.isFlushed()) for (const resolve of this.flushWaiters.splice(0)) resolve();
  }
}
