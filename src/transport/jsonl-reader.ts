// LF-only JSONL line splitting over raw bytes. Pure and stateful: feed chunks,
// get complete lines. Splits on byte 0x0A only, so U+2028/U+2029/U+0085 stay inside their line and
// multi-byte UTF-8 characters split across chunks are reassembled before decoding.
//
// A long line is decoded as it arrives: once its unterminated pieces pass DECODE_FROM bytes they
// go through a UTF-8 StringDecoder chunk by chunk (same text as decoding the whole line at once),
// so the input chunks are garbage as soon as they are read and a 50 MiB line never exists as
// bytes and text at the same time; the decoded pieces are reported as big garbage once joined.
import { StringDecoder } from "node:string_decoder";
import { noteBigGarbage } from "../shared/big-garbage.js";

/** One outcome per line: its text, or why it was dropped. */
export type LineItem = { line: string } | { error: string };

export const DEFAULT_MAX_LINE_BYTES = 64 * 1024 * 1024;

const LF = 0x0a;
const CR = 0x0d;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const BLANK = /^[ \t\r]*$/;
/** An unterminated line this long is decoded chunk by chunk from here on. */
const DECODE_FROM = 1024 * 1024;

export interface JsonlLineSplitterOptions {
  /** Longest accepted line in bytes (without the LF). Default 64 MiB. */
  maxLineBytes?: number;
}

export class JsonlLineSplitter {
  private readonly maxLineBytes: number;
  /** Pieces of the current unterminated line: concatenated once, when its LF arrives. */
  private parts: Buffer[] = [];
  /** A long line's text so far (see DECODE_FROM), and the decoder holding a split character. */
  private text: string[] = [];
  private decoder: StringDecoder | undefined;
  private partsLength = 0;
  /** Dropping an oversized line until its LF. */
  private discarding = false;
  /** Bytes seen at stream start while deciding whether they are a BOM. */
  private head: Buffer | undefined = Buffer.alloc(0);

  constructor(options: JsonlLineSplitterOptions = {}) {
    this.maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  }

  /** Feeds one chunk; returns the lines it completed, in order. */
  push(chunk: Buffer | Uint8Array | string): LineItem[] {
    let bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const items: LineItem[] = [];
    if (this.head !== undefined) {
      const stripped = this.stripBom(bytes);
      if (stripped === undefined) return items;
      bytes = stripped;
    }
    let start = 0;
    for (;;) {
      const lf = bytes.indexOf(LF, start);
      if (lf === -1) break;
      this.completeLine(bytes.subarray(start, lf), items);
      start = lf + 1;
    }
    if (start < bytes.length) this.keep(bytes.subarray(start), items);
    return items;
  }

  /** End of input: the unterminated last fragment, if any, becomes a line. */
  end(): LineItem[] {
    const items: LineItem[] = [];
    if (this.head !== undefined && this.head.length > 0) {
      const rest = this.head;
      this.head = undefined;
      return this.push(rest).concat(this.end());
    }
    this.head = undefined;
    if (this.decoder && !this.discarding) this.emitDecoded(this.decoder.end(), this.partsLength, items);
    else if (!this.discarding && this.partsLength > 0) this.emit(Buffer.concat(this.parts, this.partsLength), items);
    this.reset();
    return items;
  }

  /** Returns the bytes after a leading BOM, or undefined while it is still undecided. */
  private stripBom(bytes: Buffer): Buffer | undefined {
    const seen = Buffer.concat([this.head ?? Buffer.alloc(0), bytes]);
    const n = Math.min(seen.length, BOM.length);
    if (seen.subarray(0, n).equals(BOM.subarray(0, n))) {
      if (seen.length < BOM.length) {
        this.head = seen;
        return undefined;
      }
      this.head = undefined;
      return seen.subarray(BOM.length);
    }
    this.head = undefined;
    return seen;
  }

  private completeLine(tail: Buffer, items: LineItem[]): void {
    if (this.discarding) {
      this.discarding = false;
      return;
    }
    if (this.partsLength + tail.length > this.maxLineBytes + 1) {
      items.push({ error: this.tooLong() });
      this.reset();
      return;
    }
    if (this.decoder) return this.emitDecoded(this.decoder.end(tail), this.partsLength + tail.length, items);
    const line = this.partsLength === 0 ? tail : Buffer.concat([...this.parts, tail], this.partsLength + tail.length);
    this.reset();
    this.emit(line, items);
  }

  /** A long line's last piece arrived: its text joined, without a trailing CR (`bytes`: its length). */
  private emitDecoded(last: string, bytes: number, items: LineItem[]): void {
    this.text.push(last);
    const joined = this.text.join("");
    const pieces = this.partsLength;
    this.reset();
    noteBigGarbage(pieces);
    const cr = joined.endsWith("\r");
    if (bytes - (cr ? 1 : 0) > this.maxLineBytes) {
      items.push({ error: this.tooLong() });
      return;
    }
    const line = cr ? joined.slice(0, -1) : joined;
    if (!BLANK.test(line)) items.push({ line });
  }

  private keep(rest: Buffer, items: LineItem[]): void {
    if (this.discarding) return;
    // One byte of slack: a trailing CR may still be stripped.
    if (this.partsLength + rest.length > this.maxLineBytes + 1) {
      items.push({ error: this.tooLong() });
      this.reset();
      this.discarding = true;
      return;
    }
    // a piece that is most of its chunk is kept as it is; a short tail is copied so its chunk can go
    this.partsLength += rest.length;
    if (this.decoder) {
      this.text.push(this.decoder.write(rest));
      return;
    }
    this.parts.push(rest.length * 2 >= rest.buffer.byteLength ? rest : Buffer.from(rest));
    if (this.partsLength < DECODE_FROM) return;
    const decoder = new StringDecoder("utf8");
    for (const part of this.parts) this.text.push(decoder.write(part));
    this.parts = [];
    this.decoder = decoder;
  }

  private emit(bytes: Buffer, items: LineItem[]): void {
    const body = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.subarray(0, bytes.length - 1) : bytes;
    if (body.length > this.maxLineBytes) {
      items.push({ error: this.tooLong() });
      return;
    }
    const line = body.toString("utf8");
    if (!BLANK.test(line)) items.push({ line });
  }

  private tooLong(): string {
    return `Line exceeds the maximum frame size of ${this.maxLineBytes} bytes; it was discarded`;
  }

  private reset(): void {
    this.parts = [];
    this.text = [];
    this.decoder = undefined;
    this.partsLength = 0;
  }
}

export type ParsedFrame = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** JSON.parse one line; only a JSON object is a frame. Never throws. */
export function parseFrame(line: string): ParsedFrame {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return { ok: false, error: `Invalid JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`;
    return { ok: false, error: `Invalid frame: expected a JSON object, got ${kind}` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
