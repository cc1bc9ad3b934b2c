// Protocol version 2 on the host side: `rpc_chunk` lines are reassembled into their logical frame,
// and an `agent_end` that refers to already-streamed messages (`messageCount`) gets them back, so
// listeners see exactly what version 1 would have delivered.
import { ChunkDecoder } from "../transport/chunked-frames.js";

type Frame = Record<string, unknown> & { type: string };

export class FrameReassembler {
  private readonly chunks = new ChunkDecoder();
  /** Messages of the current run from `message_end` frames, in order. */
  private streamed: unknown[] = [];

  /** The logical frame for one parsed line; undefined while a chunk sequence is incomplete. Throws on a broken sequence. */
  push(parsed: Frame): Frame | undefined {
    const frame = this.chunks.push(parsed) as Frame | undefined;
    if (!frame) return undefined;
    if (frame.type === "agent_start") this.streamed = [];
    else if (frame.type === "message_end" && "message" in frame) this.streamed.push(frame.message);
    else if (frame.type === "agent_end") return this.expand(frame);
    return frame;
  }

  private expand(frame: Frame): Frame {
    const streamed = this.streamed;
    if (frame.willContinue !== true) this.streamed = [];
    const count = frame.messageCount;
    if (typeof count !== "number" || !Array.isArray(frame.messages)) return frame;
    const { messageCount: _count, ...rest } = frame;
    const missing = Math.max(0, count - frame.messages.length);
    return { ...rest, messages: [...streamed.slice(0, missing), ...(frame.messages as unknown[])] } as Frame;
  }
}
