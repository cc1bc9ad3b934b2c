// Writes one JSON frame per line to a Writable: frames never
// interleaved or reordered, U+2028/U+2029 escaped, backpressure honoured with an in-memory queue,
// and a closed or broken stream (EPIPE) reported once instead of thrown.
//
// Batching: the frames written during one turn of the event loop go out together, in one write
// of the stream (one syscall for a pipe or socket), at the end of that turn (setImmediate), so a
// lone frame waits at most one turn. Small frames are joined into one string; a frame of
// JOIN_LIMIT bytes or more is handed over as it is (never copied into a bigger string), in the
// same corked write. Any Writable works (stdout, a memory pipe, a WebSocket stream).
//
// Lazy frames: a frame whose content will not change (`writeLazy`) is queued as the function
// that serialises it, and serialised only when the stream takes it. While the stream is backed
// up such frames wait as references to data the process holds anyway, so a slow reader of a run
// that sends one big payload in several frames costs one serialised copy at a time, not one per
// frame. A serialised frame of JOIN_LIMIT or more goes to the stream in slices of at most SLICE,
// the next one only when the stream has taken the last (no copy of the whole frame in the
// stream's buffer), and once written it is reported as big garbage (see big-garbage.ts).
import type { Writable } from "node:stream";
import { noteBigGarbage } from "../shared/big-garbage.js";
import { holdsBigString, jsonPieces, sliceEnd } from "../shared/json-pieces.js";

export interface FrameWriterOptions {
  /** Called once, with the first write error (EPIPE, closed stdout...). Later frames are dropped. */
  onError?: (err: Error) => void;
  /** Gather the frames of one event-loop turn into one write (default true); false writes each frame at once. */
  batch?: boolean;
}

/**
 * Serialises a lazy frame when the stream is ready for it: its line(s), as `serializeFrame` or
 * `frameLines` make them, or an iterator of consecutive pieces of its text, pulled one at a time
 * as the stream takes them (a frame holding a very big string never exists whole).
 */
export type LazyFrame = () => string | string[] | Iterator<string>;

type Entry = string | LazyFrame | Iterator<string>;

const SEPARATORS = /[\u2028\u2029]/g;
/** A frame at least this long (UTF-16 units) is never joined with others: no copy of big payloads. */
const JOIN_LIMIT = 64 * 1024;
/** Joined strings stop growing past this size (a backlog after `drain` becomes several chunks of one write). */
const MAX_JOINED = 1024 * 1024;
/** A big frame is handed to the stream in slices of at most this many UTF-16 units. */
const SLICE = 1024 * 1024;

/** JSON text of one frame plus its LF, with raw U+2028/U+2029 escaped (still valid JSON). */
export function serializeFrame(frame: object): string {
  return frameJson(frame) + "\n";
}

/** JSON text of one frame without its LF, with raw U+2028/U+2029 escaped (still valid JSON). */
function frameJson(frame: object): string {
  const text = JSON.stringify(frame);
  if (typeof text !== "string") throw new TypeError("Frame is not serialisable to JSON");
  return escapeSeparators(text);
}

/** JSON text with raw U+2028/U+2029 escaped (a line separator inside a string would split the line for some readers). */
function escapeSeparators(text: string): string {
  // `includes` answers at once for a one-byte string; the regex would walk a multi-MiB answer
  if (!text.includes("\u2028") && !text.includes("\u2029")) return text;
  return text.replace(SEPARATORS, (c) => (c === "\u2028" ? "\\u2028" : "\\u2029"));
}

/**
 * The pieces of one frame's line, as the writer queues them: the text with its LF, or for a big
 * frame the text and the LF apart (the JSON stays one flat string: no copy to append the LF).
 */
export function frameLines(frame: object): string[] {
  const json = frameJson(frame);
  return json.length >= JOIN_LIMIT ? [json, "\n"] : [json + "\n"];
}

/**
 * One frame's line for a lazy write: `frameLines`, or for a frame holding a very big string the
 * consecutive pieces of its text (the same bytes), so the whole line never exists at once.
 */
export function lazyFrameLines(frame: object): string[] | Iterator<string> {
  return holdsBigString(frame) ? linePieces(frame) : frameLines(frame);
}

function* linePieces(frame: object): Generator<string> {
  let any = false;
  for (const piece of jsonPieces(frame)) {
    any = true;
    yield escapeSeparators(piece);
  }
  if (!any) throw new TypeError("Frame is not serialisable to JSON");
  yield "\n";
}

export class FrameWriter {
  private readonly stream: Writable;
  private readonly onError: ((err: Error) => void) | undefined;
  private readonly batch: boolean;
  /** Frames not yet handed to the stream, oldest first from `queueHead`; a function is a lazy frame. */
  private queue: Entry[] = [];
  private queueHead = 0;
  /** How much of the big frame at the head of the queue has been written already. */
  private headOffset = 0;
  /** UTF-16 length of the serialised frames in `queue` (lazy ones count once serialised). */
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
    for (const piece of frameLines(frame)) this.writeSerialized(piece);
  }

  /** Writes one line already produced by `serializeFrame` (framing that measures lines first). */
  writeSerialized(text: string): void {
    if (this.closedFlag) return;
    this.queue.push(text);
    this.queuedBytes += text.length;
    this.schedule();
  }

  /** Queues a frame whose content is final, to be serialised once the stream can take it. */
  writeLazy(produce: LazyFrame): void {
    if (this.closedFlag) return;
    this.queue.push(produce);
    this.schedule();
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

  private schedule(): void {
    if (this.waitingForDrain) return;
    if (!this.batch) this.pump();
    else if (!this.tickScheduled) {
      this.tickScheduled = true;
      setImmediate(this.onTick);
    }
  }

  private isDrained(): boolean {
    return this.closedFlag || (!this.waitingForDrain && this.queue.length === this.queueHead);
  }

  private isFlushed(): boolean {
    return this.closedFlag || (this.isDrained() && this.outstandingWrites === 0);
  }

  /**
   * Hands the queued frames to the stream in one corked write (one writev). Once the stream asks
   * us to wait, a lazy frame stays queued, unserialised, until `drain` (strings already made go
   * out: holding them back saves nothing).
   */
  private pump(): void {
    if (this.closedFlag || this.queue.length === this.queueHead) return;
    let accepted = true;
    if (this.batch) this.stream.cork();
    try {
      while (!this.closedFlag && this.queue.length > this.queueHead) {
        const head = this.queue[this.queueHead];
        // once the stream asks us to wait, lazy and big frames wait too (small strings already made go out)
        if (!accepted && (typeof head !== "string" || head.length >= JOIN_LIMIT)) break;
        if (typeof head !== "string") this.expand(this.queueHead);
        else if (!this.send(this.takeGroup(accepted))) accepted = false;
      }
    } finally {
      if (this.batch) this.stream.uncork();
    }
    if (this.queue.length === this.queueHead) {
      this.queue = [];
      this.queueHead = 0;
      this.headOffset = 0;
    }
    if (!accepted && !this.closedFlag) {
      this.waitingForDrain = true;
      this.stream.once("drain", () => this.onDrain());
    }
    this.settle();
  }

  /**
   * Serialises the lazy frame at `index` of the queue in place; for a frame that comes in pieces,
   * puts its next piece before it (the iterator leaves the queue once it is done).
   */
  private expand(index: number): void {
    const entry = this.queue[index] as LazyFrame | Iterator<string>;
    let lines: string[];
    try {
      if (typeof entry !== "function") {
        const next = entry.next();
        lines = next.done ? [] : [next.value];
        this.queue.splice(next.done ? index : index + 1, next.done ? 1 : 0);
        this.queue.splice(index, 0, ...lines);
        for (const line of lines) this.queuedBytes += line.length;
        return;
      }
      const out = entry();
      if (typeof out !== "string" && !Array.isArray(out)) {
        this.queue[index] = out;
        return;
      }
      lines = typeof out === "string" ? [out] : out;
    } catch (err) {
      // a lazy frame that cannot be serialised is dropped and reported, as `write` would have thrown
      this.onError?.(err instanceof Error ? err : new Error(String(err)));
      this.queue.splice(index, 1);
      return;
    }
    for (const line of lines) this.queuedBytes += line.length;
    this.queue.splice(index, 1, ...lines);
  }

  /**
   * The next frame, or the run of small frames from the head of the queue joined into one string
   * (lazy ones serialised on the way while the stream is still taking data).
   */
  private takeGroup(expandLazy: boolean): string {
    const first = this.queue[this.queueHead] as string;
    if (this.batch && first.length >= JOIN_LIMIT) return this.takeSlice(first);
    this.queue[this.queueHead++] = "";
    this.queuedBytes -= first.length;
    if (!this.batch) return first;
    let end = this.queueHead;
    let size = first.length;
    while (end < this.queue.length && size < MAX_JOINED) {
      if (typeof this.queue[end] !== "string") {
        if (!expandLazy) break;
        this.expand(end);
        continue;
      }
      const next = this.queue[end] as string;
      if (next.length >= JOIN_LIMIT) break;
      size += next.length;
      end++;
    }
    if (end === this.queueHead) return first;
    const parts = [first];
    for (let i = this.queueHead; i < end; i++) {
      parts.push(this.queue[i] as string);
      this.queue[i] = "";
    }
    this.queuedBytes -= size - first.length;
    this.queueHead = end;
    return parts.join("");
  }

  /** The next slice of the big frame at the head of the queue (never splitting a surrogate pair). */
  private takeSlice(text: string): string {
    const from = this.headOffset;
    const to = sliceEnd(text, from, SLICE);
    this.queuedBytes -= to - from;
    if (to < text.length) {
      this.headOffset = to;
      return text.slice(from, to);
    }
    this.queue[this.queueHead++] = "";
    this.headOffset = 0;
    noteBigGarbage(text.length);
    return from === 0 ? text : text.slice(from);
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
    this.headOffset = 0;
    this.queuedBytes = 0;
    this.waitingForDrain = false;
    this.settle();
  }

  private settle(): void {
    if (this.isDrained()) for (const resolve of this.drainWaiters.splice(0)) resolve();
    if (this.isFlushed()) for (const resolve of this.flushWaiters.splice(0)) resolve();
  }
}
