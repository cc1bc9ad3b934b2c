// A transport over one WebSocket: each text message in is one frame, each frame out is one text
// message. Outbound frames go through the same FrameWriter as stdio (one place for ordering,
// backpressure and broken-peer handling): the writer writes LF-terminated lines to a Writable
// that sends every line as its own message, and completes a write only once the socket has handed
// the bytes to the OS, so the writer's pending bytes grow while the peer does not read. The
// socket is typed structurally (the `ws` package's WebSocket fits), so this layer loads no
// WebSocket library itself.
import { Writable } from "node:stream";
import { FrameWriter } from "./frame-writer.js";
import type { LineItem } from "./jsonl-reader.js";
import type { Transport } from "./stream-transport.js";

/** What the transport needs of a WebSocket (the `ws` package's WebSocket, client or server side). */
export interface WebSocketLike {
  send(data: string, cb?: (err?: Error) => void): void;
  /** Bytes handed to `send` and not yet written to the OS. */
  readonly bufferedAmount: number;
  readonly readyState: number;
  close(code?: number, reason?: string): void;
  pause(): void;
  resume(): void;
  on(event: "message", listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: "close", listener: (code: number, reason: Buffer) => void): unknown;
}

/** The `readyState` of an open WebSocket. */
const OPEN = 1;

export interface WebSocketTransportOptions {
  /** Largest inbound message accepted as a frame; a larger one is answered as a line too long. */
  maxMessageBytes?: number;
  /**
   * Outbound bound: when a frame is due while more than this many bytes are still unsent (queued
   * by the writer or buffered by the socket), `onOverflow` is called once and nothing more is sent.
   */
  maxBufferedBytes?: number;
  /**
   * Stall bound: when frames have waited unsent this long without the socket taking any of them
   * (the peer stopped reading), `onOverflow` is called once and nothing more is sent.
   */
  stallMs?: number;
  /** Called once when either bound is passed, with the unsent bytes and which bound. */
  onOverflow?: (bufferedBytes: number, why: "bytes" | "stalled") => void;
  /** First send error, reported once. */
  onWriteError?: (err: Error) => void;
}

/** Inbound messages held before the socket is paused (the reader is behind). */
const INBOUND_PAUSE_BYTES = 8 * 1024 * 1024;
const BLANK = /^[ \t\r\n]*$/;

export interface WebSocketTransport extends Transport {
  /** Bytes accepted for sending and not yet handed to the OS (writer queue + socket buffer). */
  readonly outboundBytes: number;
}

export function createWebSocketTransport(socket: WebSocketLike, options: WebSocketTransportOptions = {}): WebSocketTransport {
  const inbound = new InboundQueue(socket, options.maxMessageBytes);
  const writer = new MessageFrameWriter(socket, options);
  const stall = options.stallMs ? setInterval(() => writer.checkStall(), Math.max(10, options.stallMs / 4)) : undefined;
  stall?.unref();
  socket.on("close", () => clearInterval(stall));
  return {
    lines: inbound,
    writer,
    get outboundBytes() {
      return writer.outboundBytes;
    },
    async close() {
      inbound.stop();
      await writer.flush();
      if (socket.readyState === OPEN) socket.close(1000, "");
    },
  };
}

/** Sends every LF-terminated line written to it as one message; a write completes once sent to the OS. */
class MessageSender extends Writable {
  constructor(private readonly socket: WebSocketLike) {
    super({ decodeStrings: false, highWaterMark: 64 * 1024 });
  }

  /** When the socket last took frames (handed them to the OS), or was found with nothing unsent. */
  lastProgressAt = Date.now();

  override _write(chunk: string, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.sendLines([chunk], cb);
  }

  override _writev(chunks: Array<{ chunk: string }>, cb: (err?: Error | null) => void): void {
    this.sendLines(chunks.map((c) => c.chunk), cb);
  }

  /** The start of a frame whose end has not been written yet (the writer hands big frames over in slices). */
  private partial = "";

  private sendLines(chunks: string[], cb: (err?: Error | null) => void): void {
    const messages: string[] = [];
    // A serialized frame never holds a raw LF (JSON escapes it), so LF separates frames exactly;
    // text after the last LF is the start of a frame and waits for the rest of it.
    for (const chunk of chunks) {
      const lines = (this.partial + String(chunk)).split("\n");
      this.partial = lines.pop() ?? "";
      for (const line of lines) if (line !== "") messages.push(line);
    }
    if (messages.length === 0) return cb();
    const last = messages.length - 1;
    try {
      for (let i = 0; i < last; i++) this.socket.send(messages[i]);
      this.socket.send(messages[last], (err) => {
        this.lastProgressAt = Date.now();
        cb(err ?? null);
      });
    } catch (err) {
      cb(err instanceof Error ? err : new Error(String(err)));
    }
  }
}

/** The FrameWriter over a MessageSender, with the outbound bound checked before each frame. */
class MessageFrameWriter extends FrameWriter {
  private overflowed = false;
  private readonly sender: MessageSender;

  constructor(
    private readonly socket: WebSocketLike,
    private readonly options: WebSocketTransportOptions,
    sender = new MessageSender(socket),
  ) {
    super(sender, { onError: options.onWriteError });
    this.sender = sender;
  }

  /** The stall bound, checked on a timer: frames are waiting and the socket took none for `stallMs`. */
  checkStall(): void {
    const stallMs = this.options.stallMs;
    if (this.overflowed || stallMs === undefined) return;
    const now = Date.now();
    if (this.outboundBytes === 0) this.sender.lastProgressAt = now;
    else if (now - this.sender.lastProgressAt > stallMs) this.overflow("stalled");
  }

  private overflow(why: "bytes" | "stalled"): void {
    this.overflowed = true;
    this.options.onOverflow?.(this.outboundBytes, why);
  }

  get outboundBytes(): number {
    return this.pendingBytes + this.socket.bufferedAmount;
  }

  override writeSerialized(text: string): void {
    if (this.overflowed) return;
    const limit = this.options.maxBufferedBytes;
    // The bound is on what the peer left unread before this frame: one large frame to a peer
    // that keeps up still goes out whole.
    if (limit !== undefined && this.outboundBytes > limit) return this.overflow("bytes");
    super.writeSerialized(text);
  }
}

/** Inbound messages as the lines of a Transport, in order; the socket pauses while too much waits. */
class InboundQueue implements AsyncIterable<LineItem>, AsyncIterator<LineItem> {
  private readonly items: Array<{ item: LineItem; bytes: number }> = [];
  private head = 0;
  private queuedBytes = 0;
  private paused = false;
  private ended = false;
  private waiter: ((result: IteratorResult<LineItem>) => void) | undefined;

  constructor(
    private readonly socket: WebSocketLike,
    private readonly maxMessageBytes: number | undefined,
  ) {
    socket.on("message", (data, isBinary) => this.push(this.toItem(data, isBinary)));
    socket.on("close", () => this.stop());
  }

  [Symbol.asyncIterator](): AsyncIterator<LineItem> {
    return this;
  }

  next(): Promise<IteratorResult<LineItem>> {
    if (this.head < this.items.length) {
      const { item, bytes } = this.items[this.head];
      this.items[this.head++] = undefined as never;
      if (this.head === this.items.length) this.items.length = this.head = 0;
      this.queuedBytes -= bytes;
      if (this.paused && this.queuedBytes < INBOUND_PAUSE_BYTES / 2) {
        this.paused = false;
        this.socket.resume();
      }
      return Promise.resolve({ value: item, done: false });
    }
    if (this.ended) return Promise.resolve({ value: undefined, done: true });
    return new Promise((resolve) => (this.waiter = resolve));
  }

  return(): Promise<IteratorResult<LineItem>> {
    this.stop();
    return Promise.resolve({ value: undefined, done: true });
  }

  /** No more messages: the iteration ends once the queued ones are read. */
  stop(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.head === this.items.length) this.wake({ value: undefined, done: true });
  }

  private push(item: LineItem | undefined): void {
    if (item === undefined || this.ended) return;
    if (this.waiter) return this.wake({ value: item, done: false });
    const bytes = "line" in item ? item.line.length : 0;
    this.items.push({ item, bytes });
    this.queuedBytes += bytes;
    if (!this.paused && this.queuedBytes > INBOUND_PAUSE_BYTES) {
      this.paused = true;
      this.socket.pause();
    }
  }

  private wake(result: IteratorResult<LineItem>): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.(result);
  }

  private toItem(data: unknown, isBinary: boolean): LineItem | undefined {
    if (isBinary) return { error: "Binary WebSocket messages are not frames: send each frame as one text message" };
    const bytes = messageBytes(data);
    if (this.maxMessageBytes !== undefined && bytes.length > this.maxMessageBytes) {
      return { error: `Message exceeds the maximum frame size of ${this.maxMessageBytes} bytes; it was discarded` };
    }
    const text = bytes.toString("utf8");
    return BLANK.test(text) ? undefined : { line: text };
  }
}

/** The bytes of a `ws` message (a Buffer, an ArrayBuffer or the fragments of one message). */
function messageBytes(data: unknown): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]);
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  return Buffer.from(String(data), "utf8");
}
