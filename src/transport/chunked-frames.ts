// Protocol version 2 framing (oh-my-pi's `rpc_chunk`): a logical frame whose line would exceed
// MAX_FRAME_BYTES travels as consecutive `rpc_chunk` lines, each carrying a base64 slice of the
// frame's UTF-8 JSON. The decoder reassembles them after each line has been parsed. Constants and
// error texts match oh-my-pi 18.3.4 (src/modes/rpc/rpc-frame.ts) so either side interoperates.

/** Maximum UTF-8 size of one physical line, counting its trailing newline. */
export const MAX_FRAME_BYTES = 1024 * 1024;
/** Maximum UTF-8 size of one logical frame reassembled from chunks. */
export const MAX_REASSEMBLED_FRAME_BYTES = 64 * 1024 * 1024;
/** Payload bytes per chunk before base64 (256 KiB → ~342 KiB of base64 per line). */
export const CHUNK_PAYLOAD_BYTES = 256 * 1024;

export type ProtocolVersion = 1 | 2;
export const SUPPORTED_PROTOCOL_VERSIONS: readonly ProtocolVersion[] = [1, 2];

export interface RpcChunkFrame {
  type: "rpc_chunk";
  chunkId: string;
  index: number;
  count: number;
  byteLength: number;
  data: string;
}

/** The chunk frames of one logical frame's JSON text (no trailing newline), in order. */
export function* chunkFrames(json: string, chunkId: string): Generator<RpcChunkFrame> {
  const bytes = Buffer.from(json, "utf8");
  const byteLength = bytes.byteLength;
  const count = Math.ceil(byteLength / CHUNK_PAYLOAD_BYTES);
  for (let index = 0; index < count; index++) {
    const data = bytes.subarray(index * CHUNK_PAYLOAD_BYTES, (index + 1) * CHUNK_PAYLOAD_BYTES).toString("base64");
    yield { type: "rpc_chunk", chunkId, index, count, byteLength, data };
  }
}

interface Pending {
  chunkId: string;
  count: number;
  byteLength: number;
  nextIndex: number;
  chunks: Buffer[];
  receivedBytes: number;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const MAX_CHUNKS = Math.ceil(MAX_REASSEMBLED_FRAME_BYTES / CHUNK_PAYLOAD_BYTES);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decodeBase64(data: unknown): Buffer {
  if (typeof data !== "string" || data.length === 0 || !BASE64.test(data)) throw new Error("invalid rpc chunk data");
  const bytes = Buffer.from(data, "base64");
  if (bytes.toString("base64") !== data) throw new Error("invalid rpc chunk data");
  return bytes;
}

function validMetadata(v: Record<string, unknown>): v is Record<string, unknown> & Omit<RpcChunkFrame, "data"> {
  const { chunkId, index, count, byteLength } = v;
  return (
    typeof chunkId === "string" &&
    chunkId.length > 0 &&
    chunkId.length <= 128 &&
    Number.isSafeInteger(index) &&
    Number.isSafeInteger(count) &&
    Number.isSafeInteger(byteLength) &&
    (index as number) >= 0 &&
    (count as number) >= 2 &&
    (count as number) <= MAX_CHUNKS &&
    (index as number) < (count as number) &&
    (byteLength as number) >= MAX_FRAME_BYTES &&
    (byteLength as number) <= MAX_REASSEMBLED_FRAME_BYTES
  );
}

/**
 * Reassembles `rpc_chunk` sequences from parsed lines. `push` returns the logical frame, or
 * undefined while a sequence is incomplete; it throws on a malformed or interrupted sequence (the
 * pending sequence is dropped, so the next frame starts clean).
 */
export class ChunkDecoder {
  private pending: Pending | undefined;

  push(value: unknown): Record<string, unknown> | undefined {
    try {
      return this.accept(value);
    } catch (err) {
      this.pending = undefined;
      throw err;
    }
  }

  private accept(value: unknown): Record<string, unknown> | undefined {
    if (!isRecord(value) || value.type !== "rpc_chunk") {
      if (this.pending) throw new Error("rpc chunk sequence interrupted");
      if (!isRecord(value)) throw new Error("rpc frame must be an object");
      return value;
    }
    if (!validMetadata(value)) throw new Error("invalid rpc chunk metadata");
    const bytes = decodeBase64(value.data);
    if (bytes.byteLength > CHUNK_PAYLOAD_BYTES) throw new Error("rpc chunk payload exceeds the transport limit");
    const { chunkId, index, count, byteLength } = value;
    if (!this.pending) {
      if (index !== 0) throw new Error("rpc chunk sequence must start at index 0");
      this.pending = { chunkId, count, byteLength, nextIndex: 0, chunks: [], receivedBytes: 0 };
    }
    const p = this.pending;
    if (p.chunkId !== chunkId || p.count !== count || p.byteLength !== byteLength || p.nextIndex !== index) {
      throw new Error("rpc chunk sequence mismatch");
    }
    p.chunks.push(bytes);
    p.receivedBytes += bytes.byteLength;
    p.nextIndex++;
    if (p.receivedBytes > p.byteLength) throw new Error("rpc chunk sequence exceeds declared length");
    if (p.nextIndex < p.count) return undefined;
    if (p.receivedBytes !== p.byteLength) throw new Error("rpc chunk sequence length mismatch");
    this.pending = undefined;
    const frame: unknown = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(p.chunks)));
    if (!isRecord(frame)) throw new Error("rpc frame must be an object");
    return frame;
  }

  /** True while a chunk sequence is incomplete. */
  get inSequence(): boolean {
    return this.pending !== undefined;
  }
}
