import { describe, expect, it } from "vitest";
import { ChunkDecoder, MAX_FRAME_BYTES, serializeFrame, type LazyFrame } from "../transport/index.js";
import { FrameEncoder } from "./frame-encoder.js";
import type { RpcFrame } from "./event-frames.js";

/** The text a lazy frame's producer gives: its line(s) or its pieces, joined. */
function produced(produce: LazyFrame): string {
  const out = produce();
  if (typeof out === "string") return out;
  if (Array.isArray(out)) return out.join("");
  return [...{ [Symbol.iterator]: () => out }].join("");
}

function encoder() {
  const lines: string[] = [];
  const out = {
    write: (f: object) => lines.push(serializeFrame(f)),
    writeSerialized: (t: string) => lines.push(t),
    writeLazy: (produce: LazyFrame) => lines.push(produced(produce)),
    pendingBytes: 0,
  };
  return { enc: new FrameEncoder(out), lines };
}
const f = (x: Record<string, unknown>) => x as unknown as RpcFrame;
const user = (text: string) => ({ role: "user", content: [{ type: "text", text }], timestamp: 1 });
const negotiated = f({ type: "response", id: 1, command: "negotiate_protocol", success: true, data: { protocolVersion: 2 } });

describe("FrameEncoder", () => {
  it("writes version 1 frames as single lines whatever their size", () => {
    const { enc, lines } = encoder();
    enc.write(f({ type: "response", command: "get_messages", success: true, data: { x: "a".repeat(2 * MAX_FRAME_BYTES) } }));
    expect(lines).toHaveLength(1);
    expect(enc.protocolVersion).toBe(1);
  });

  it("switches after the negotiate_protocol response, which is written in version 1", () => {
    const { enc, lines } = encoder();
    enc.write(negotiated);
    expect(enc.protocolVersion).toBe(2);
    expect(JSON.parse(lines[0])).toMatchObject({ command: "negotiate_protocol" });
    const frame = { type: "response", command: "get_messages", success: true, data: { x: "a".repeat(3 * MAX_FRAME_BYTES) } };
    enc.write(f(frame));
    const chunked = lines.slice(1);
    expect(chunked.length).toBeGreaterThan(3);
    const decoder = new ChunkDecoder();
    let whole: unknown;
    for (const line of chunked) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
      whole = decoder.push(JSON.parse(line)) ?? whole;
    }
    expect(whole).toEqual(frame);
  });

  it("agent_end refers to the messages already streamed in message_end frames", () => {
    const { enc, lines } = encoder();
    enc.write(negotiated);
    const a = user("x".repeat(700_000));
    const b = user("y".repeat(700_000));
    const c = user("short");
    enc.write(f({ type: "agent_start" }));
    enc.write(f({ type: "message_end", message: a }));
    enc.write(f({ type: "message_end", message: JSON.parse(JSON.stringify(b)) }));
    enc.write(f({ type: "agent_end", messages: [a, b, c] }));
    const end = JSON.parse(lines.at(-1)!);
    expect(end).toEqual({ type: "agent_end", messages: [c], messageCount: 3 });
  });

  it("a small agent_end is written unchanged in version 2", () => {
    const { enc, lines } = encoder();
    enc.write(negotiated);
    enc.write(f({ type: "agent_start" }));
    enc.write(f({ type: "message_end", message: user("hi") }));
    enc.write(f({ type: "agent_end", messages: [user("hi")] }));
    expect(JSON.parse(lines.at(-1)!)).toEqual({ type: "agent_end", messages: [user("hi")] });
  });
});

describe("FrameEncoder with filtered run boundaries", () => {
  it("forgets streamed messages at a filtered agent_start or agent_end", () => {
    const { enc, lines } = encoder();
    enc.write(negotiated);
    const big = user("z".repeat(1_100_000));
    enc.write(f({ type: "message_end", message: big }));
    enc.skipped({ type: "agent_end" });
    enc.skipped({ type: "agent_start" });
    enc.write(f({ type: "agent_end", messages: [big] }));
    // Nothing of this run was streamed: the whole agent_end goes out (chunked), not a reference.
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ type: "rpc_chunk" });
  });

  it("a final frame serialised late comes out as it would have at once (protocol version and streamed messages as of the write)", () => {
    const run = (late: boolean) => {
      const lines: Array<string | LazyFrame> = [];
      const out = {
        write: (fr: object) => lines.push(serializeFrame(fr)),
        writeSerialized: (t: string) => lines.push(t),
        writeLazy: (produce: LazyFrame) => lines.push(late ? produce : produced(produce)),
        pendingBytes: 0,
      };
      const enc = new FrameEncoder(out);
      const big = user("b".repeat(MAX_FRAME_BYTES));
      enc.write(f({ type: "agent_start" }));
      enc.write(f({ type: "message_end", message: big }), true);
      enc.write(negotiated);
      enc.write(f({ type: "message_end", message: big }), true);
      enc.write(f({ type: "agent_end", messages: [big] }), true);
      enc.write(f({ type: "agent_start" }));
      return lines.map((l) => (typeof l === "string" ? l : produced(l))).join("");
    };
    const eager = run(false);
    expect(run(true)).toBe(eager);
    const parsed = eager.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(parsed[1]).toMatchObject({ type: "message_end" }); // still version 1: one line
    expect(parsed.some((p) => p.type === "rpc_chunk")).toBe(true); // the second, after negotiation
    expect(parsed.find((p) => p.type === "agent_end")).toEqual({ type: "agent_end", messages: [], messageCount: 1 });
  });
});
