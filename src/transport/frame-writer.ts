// Writes one JSON frame per line to a Writable (protocol.md §1.2, design.md §4.5): one write per
// frame, never interleaved, U+2028/U+2029 escaped, backpressure honoured with an in-memory queue,
// and a closed or broken stream (EPIPE) reported once instead of thrown.
import type { Writable } from "node:stream";

export interface FrameWriterOptions {
  /** Called once, with the first write error (EPIPE, closed stdout...). Later frames are dropped. */
  onError?: (err: Error) => void;
}

const SEPARATORS = /[\u2028\u2029]/g;

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
  private queue: string[] = [];
  private queueHead = 0;
  private queuedBytes = 0;
  private waitingForDrain = false;
  private outstandingWrites = 0;
  private closedFlag = false;
  private errorReported = false;
  private drainWaiters: Array<() => void> = [];
  private flushWaiters: Array<() => void> = [];

  constructor(stream: Writable, options: FrameWriterOptions = {}) {
    this.stream = stream;
    this.onError = options.onError;
    stream.on("error", (err) => this.fail(err));
    stream.on("close", () => this.fail(undefined));
  }

  /** True once the stream failed or closed: frames are dropped from then on. */
  get closed(): boolean {
    return this.closedFlag;
  }

  /** Bytes accepted but not yet handed to the OS (our queue plus the stream's own buffer). */
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
    if (this.waitingForDrain || this.queue.length > this.queueHead) {
      this.queue.push(text);
      this.queuedBytes += Buffer.byteLength(text);
      return;
    }
    this.send(text);
  }

  /** Resolves when the in-memory queue is empty (the stream accepted everything). */
  whenDrained(): Promise<void> {
    if (this.isDrained()) return Promise.resolve();
    return new Promise((resolve) => this.drainWaiters.push(resolve));
  }

  /** Resolves when every frame written so far has been handed to the OS (or the stream died). */
  flush(): Promise<void> {
    if (this.isFlushed()) return Promise.resolve();
    return new Promise((resolve) => this.flushWaiters.push(resolve));
  }

  private isDrained(): boolean {
    return this.closedFlag || (!this.waitingForDrain && this.queue.length === this.queueHead);
  }

  private isFlushed(): boolean {
    return this.closedFlag || (this.isDrained() && this.outstandingWrites === 0);
  }

  private send(text: string): void {
    this.outstandingWrites++;
    let accepted: boolean;
    try {
      accepted = this.stream.write(text, (err) => this.written(err));
    } catch (err) {
      this.outstandingWrites--;
      this.fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    if (!accepted && !this.closedFlag) {
      this.waitingForDrain = true;
      this.stream.once("drain", () => this.onDrain());
    }
  }

  private written(err: Error | null | undefined): void {
    this.outstandingWrites--;
    if (err) this.fail(err);
    this.settle();
  }

  private onDrain(): void {
    this.waitingForDrain = false;
    while (!this.closedFlag && !this.waitingForDrain && this.queue.length > this.queueHead) {
      const text = this.queue[this.queueHead];
      this.queue[this.queueHead++] = "";
      this.queuedBytes -= Buffer.byteLength(text);
      this.send(text);
    }
    if (this.queue.length === this.queueHead) {
      this.queue = [];
      this.queueHead = 0;
    }
    this.settle();
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
