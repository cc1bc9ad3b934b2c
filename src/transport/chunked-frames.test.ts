import { describe, expect, it } from "vitest";
import { CHUNK_PAYLOAD_BYTES, ChunkDecoder, MAX_FRAME_BYTES, chunkFrames } from "./chunked-frames.js";

const big = (n: number) => JSON.stringify({ type: "response", data: "é".repeat(n) });

describe("rpc_chunk framing (oh-my-pi protocol version 2)", () => {
  it("splits a frame into lines under the limit that reassemble byte for byte", () => {
    const json = big(1_500_000);
    const chunks = [...chunkFrames(json, "rpc-1")];
    expect(chunks.length).toBe(Math.ceil(Buffer.byteLength(json) / CHUNK_PAYLOAD_BYTES));
    for (const c of chunks) expect(Buffer.byteLength(JSON.stringify(c)) + 1).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    const decoder = new ChunkDecoder();
    const out = chunks.map((c) => decoder.push(JSON.parse(JSON.stringify(c))));
    expect(out.slice(0, -1).every((o) => o === undefined)).toBe(true);
    expect(out.at(-1)).toEqual(JSON.parse(json));
  });

  it("passes ordinary frames through and refuses broken sequences", () => {
    const decoder = new ChunkDecoder();
    expect(decoder.push({ type: "ready" })).toEqual({ type: "ready" });
    const chunks = [...chunkFrames(big(1_200_000), "rpc-2")];
    decoder.push(chunks[0]);
    expect(() => decoder.push({ type: "agent_end" })).toThrow("rpc chunk sequence interrupted");
    expect(() => decoder.push(chunks[1])).toThrow("rpc chunk sequence must start at index 0");
    expect(() => decoder.push({ ...chunks[0], data: "%%%" })).toThrow("invalid rpc chunk data");
    expect(() => decoder.push({ ...chunks[0], count: 1 })).toThrow("invalid rpc chunk metadata");
    decoder.push(chunks[0]);
    expect(() => decoder.push({ ...chunks[1], chunkId: "other" })).toThrow("rpc chunk sequence mismatch");
  });
});

describe("rpc_chunk round trip (property)", () => {
  it("any frame over the line limit reassembles exactly, whatever its characters", async () => {
    const fc = (await import("fast-check")).default;
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 40 }), fc.integer({ min: 0, max: 300_000 }), (piece, extra) => {
        const text = piece.repeat(Math.ceil((MAX_FRAME_BYTES + extra) / Math.max(1, Buffer.byteLength(piece))));
        const frame = { type: "message_end", message: { role: "user", content: [{ type: "text", text }] } };
        const json = JSON.stringify(frame);
        const decoder = new ChunkDecoder();
        let out: unknown;
        for (const chunk of chunkFrames(json, "rpc-p")) out = decoder.push(JSON.parse(JSON.stringify(chunk))) ?? out;
        expect(out).toEqual(frame);
      }),
      { numRuns: 8 },
    );
  });
});
