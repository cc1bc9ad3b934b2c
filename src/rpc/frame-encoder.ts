// The last step before bytes: protocol version 1 writes each frame as one line, whatever its size
// (the seed protocol). After `negotiate_protocol 2` no line exceeds MAX_FRAME_BYTES: an `agent_end`
// refers to the messages already streamed in `message_end` frames instead of repeating them
// (`messages` keeps the rest, `messageCount` says how many there were), and any frame still too
// large goes out as oh-my-pi's `rpc_chunk` lines. The switch happens right after the successful
// negotiate_protocol response, which itself is written in version 1.
import { lazyFrameLines, serializeFrame, type LazyFrame } from "../transport/frame-writer.js";
import {
  MAX_FRAME_BYTES,
  MAX_REASSEMBLED_FRAME_BYTES,
  chunkFrames,
  type ProtocolVersion,
} from "../transport/chunked-frames.js";
import { noteBigGarbage } from "../shared/big-garbage.js";
import type { FrameSink, RpcFrame } from "./event-frames.js";

/** What the encoder writes to: the transport's frame writer. */
export interface LineSink {
  write(frame: object): void;
  writeSerialized(text: string): void;
  /** A frame serialised when the stream takes it (its content must not change meanwhile). */
  writeLazy(produce: LazyFrame): void;
  readonly pendingBytes: number;
}

type Rec = Record<string, unknown>;

export class FrameEncoder implements FrameSink {
  private version: ProtocolVersion = 1;
  /** Messages of the current run already written in `message_end` frames, in order. */
  private streamed: unknown[] = [];
  private chunkCounter = 0;

  constructor(private readonly out: LineSink) {}

  get protocolVersion(): ProtocolVersion {
    return this.version;
  }

  get pendingBytes(): number {
    return this.out.pendingBytes;
  }

  /**
   * Writes one frame in order. `final`: its content will not change, so it may be serialised
   * later, when the stream takes it (big payloads then cost one serialised copy at a time).
   */
  write(frame: RpcFrame, final = false): void {
    const f = frame as Rec;
    if (f.type === "agent_start") this.streamed = [];
    if (!final) this.encode(f, this.version, this.streamed);
    else {
      // the version and the streamed messages as of now, whenever the frame is serialised
      const version = this.version;
      const streamed = f.type === "agent_end" ? this.streamed.slice() : [];
      this.out.writeLazy(() => this.lines(f, version, streamed));
    }
    if (f.type === "message_end" && "message" in f) this.streamed.push(f.message);
    else if (f.type === "agent_end" && f.willContinue !== true) this.streamed = [];
    if (f.type === "response" && f.command === "negotiate_protocol" && f.success === true) this.version = 2;
  }

  private encode(frame: Rec, version: ProtocolVersion, streamed: readonly unknown[]): void {
    if (version === 1) this.out.write(frame);
    else for (const line of this.v2Lines(frame, streamed)) this.out.writeSerialized(line);
  }

  private lines(frame: Rec, version: ProtocolVersion, streamed: readonly unknown[]): string[] | Iterator<string> {
    return version === 1 ? lazyFrameLines(frame) : this.v2Lines(frame, streamed);
  }

  /** A run boundary the host does not see still bounds what `agent_end` may refer to. */
  skipped(event: { type: string }): void {
    if (event.type === "agent_start" || event.type === "agent_end") this.streamed = [];
  }

  /**
   * Version 2 lines of one frame: itself, else `agent_end` by reference, else `rpc_chunk` lines,
   * made one at a time as the stream takes them (the frame's JSON is big garbage once chunked).
   */
  private v2Lines(frame: Rec, streamed: readonly unknown[]): string[] | Generator<string> {
    let text = serializeFrame(frame);
    if (Buffer.byteLength(text, "utf8") <= MAX_FRAME_BYTES) return [text];
    const compacted = compactTerminalFrame(frame, streamed);
    if (compacted !== frame) {
      text = serializeFrame(compacted);
      if (Buffer.byteLength(text, "utf8") <= MAX_FRAME_BYTES) return [text];
    }
    const json = text.slice(0, -1);
    if (Buffer.byteLength(json, "utf8") > MAX_REASSEMBLED_FRAME_BYTES) return [serializeFrame(overflowFrame(compacted))];
    return chunkLines(json, `rpc-${++this.chunkCounter}`);
  }
}

function* chunkLines(json: string, id: string): Generator<string> {
  for (const chunk of chunkFrames(json, id)) yield serializeFrame(chunk);
  noteBigGarbage(json.length);
}

function sameMessage(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

/** An `agent_end` without the leading messages the host already has from `message_end` frames. */
export function compactTerminalFrame(frame: Rec, streamed: readonly unknown[]): Rec {
  if (frame.type !== "agent_end" || !Array.isArray(frame.messages)) return frame;
  const messages = frame.messages as unknown[];
  let n = 0;
  const limit = Math.min(streamed.length, messages.length);
  while (n < limit && sameMessage(streamed[n], messages[n])) n++;
  return { ...frame, messages: messages.slice(n), messageCount: messages.length };
}

/** What is written instead of a frame larger than MAX_REASSEMBLED_FRAME_BYTES (oh-my-pi's shapes). */
export function overflowFrame(frame: Rec): Rec {
  const cap = (s: unknown, fallback?: string) => (typeof s === "string" ? s.slice(0, 1024) : fallback);
  if (frame.type === "response") {
    return {
      ...(frame.id !== undefined ? { id: typeof frame.id === "string" ? cap(frame.id) : frame.id } : {}),
      type: "response",
      command: cap(frame.command, "unknown"),
      success: false,
      error: "RPC response exceeded the transport limit",
    };
  }
  if (frame.type === "agent_end") {
    return { type: "agent_end", messages: [], messageCount: typeof frame.messageCount === "number" ? frame.messageCount : 0 };
  }
  const originalType = cap(frame.type);
  return { type: "rpc_frame_error", ...(originalType !== undefined ? { originalType } : {}), error: "RPC frame exceeded the transport limit" };
}
