import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { FrameWriter, lazyFrameLines, serializeFrame } from "./frame-writer.js";

/** A Writable that accepts one chunk at a time and completes it only when `release()` is called. */
function slowWritable(highWaterMark = 64) {
  const chunks: string[] = [];
  const pending: Array<() => void> = [];
  const stream = new Writable({
    highWaterMark,
    decodeStrings: false,
    write(chunk: string, _enc, cb) {
      chunks.push(chunk);
      pending.push(() => cb());
    },
  });
  const release = async () => {
    while (pending.length) {
      pending.shift()!();
      await new Promise((r) => setImmediate(r));
    }
  };
  return { stream, chunks, release };
}

describe("serializeFrame", () => {
  it("escapes raw U+2028/U+2029 and still parses to the same value", () => {
    const frame = { type: "x", text: "a\u2028b\u2029c" };
    const text = serializeFrame(frame);
    expect(text).toBe('{"type":"x","text":"a\\u2028b\\u2029c"}\n');
    expect(text).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(frame);
  });

  it("omits undefined keys and rejects unserialisable values", () => {
    expect(serializeFrame({ type: "r", id: undefined })).toBe('{"type":"r"}\n');
    expect(() => serializeFrame({ n: 1n } as object)).toThrow();
  });
});

describe("FrameWriter", () => {
  it("unbatched: queues under backpressure, keeps order, loses nothing and writes whole frames", async () => {
    const { stream, chunks, release } = slowWritable(64);
    const writer = new FrameWriter(stream, { batch: false });
    const frames = Array.from({ length: 200 }, (_, i) => ({ type: "message_update", i, text: `d${i}\u2028`.repeat(i % 7) }));
    for (const frame of frames) writer.write(frame);
    expect(writer.pendingBytes).toBeGreaterThan(0);
    let drained = false;
    const drainedP = writer.whenDrained().then(() => (drained = true));
    const flushed = writer.flush();
    expect(drained).toBe(false);
    await release();
    await drainedP;
    await flushed;
    expect(writer.pendingBytes).toBe(0);
    expect(chunks).toHaveLength(frames.length);
    for (const chunk of chunks) expect(chunk.endsWith("\n") && chunk.indexOf("\n") === chunk.length - 1).toBe(true);
    expect(chunks.map((c) => JSON.parse(c))).toEqual(frames);
    expect(chunks.join("")).not.toMatch(/[\u2028\u2029]/);
  });

  it("resolves whenDrained/flush at once when idle", async () => {
    const { stream } = slowWritable();
    const writer = new FrameWriter(stream);
    await writer.whenDrained();
    await writer.flush();
    expect(writer.pendingBytes).toBe(0);
  });

  it("reports a broken pipe once, drops later frames and never throws", async () => {
    const errors: Error[] = [];
    const stream = new Writable({
      write(_chunk, _enc, cb) {
        cb(Object.assign(new Error("write EPIPE"), { code: "EPIPE" }));
      },
    });
    const writer = new FrameWriter(stream, { onError: (err) => errors.push(err) });
    writer.write({ type: "a" });
    const flushed = writer.flush();
    await flushed;
    writer.write({ type: "b" });
    writer.write({ type: "c" });
    await writer.flush();
    expect(errors).toHaveLength(1);
    expect(errors[0].message).toBe("write EPIPE");
    expect(writer.closed).toBe(true);
  });

  it("releases waiters when the stream is destroyed while frames are queued", async () => {
    const { stream } = slowWritable(16);
    const errors: Error[] = [];
    const writer = new FrameWriter(stream, { onError: (err) => errors.push(err) });
    for (let i = 0; i < 10; i++) writer.write({ type: "x", i });
    const flushed = writer.flush();
    stream.destroy(new Error("closed"));
    await flushed;
    expect(writer.pendingBytes).toBe(0);
    expect(errors.map((e) => e.message)).toEqual(["closed"]);
    writer.write({ type: "late" });
  });
});

/** A Writable that records each write call (a writev counts once) with the chunks it carried. */
function recordingWritable() {
  const calls: string[][] = [];
  const stream = new Writable({
    decodeStrings: false,
    highWaterMark: 1 << 30,
    write(chunk: string, _enc, cb) {
      calls.push([chunk]);
      cb();
    },
    writev(chunks, cb) {
      calls.push(chunks.map((c) => c.chunk as string));
      cb();
    },
  });
  return { stream, calls };
}

const tick = () => new Promise((r) => setImmediate(r));

describe("FrameWriter batching", () => {
  it("writes the frames of one event-loop turn in one write, in order, bytes unchanged", async () => {
    const { stream, calls } = recordingWritable();
    const writer = new FrameWriter(stream);
    const frames = Array.from({ length: 50 }, (_, i) => ({ type: "message_update", i, text: "x\u2028".repeat(i % 5) }));
    for (const frame of frames) writer.write(frame);
    expect(calls).toHaveLength(0);
    await tick();
    expect(calls).toHaveLength(1);
    expect(calls[0].join("")).toBe(frames.map((f) => serializeFrame(f)).join(""));
    writer.write({ type: "next" });
    await tick();
    expect(calls).toHaveLength(2);
    expect(calls[1]).toEqual(['{"type":"next"}\n']);
  });

  it("delays a lone frame by at most one turn of the event loop", async () => {
    const { stream, calls } = recordingWritable();
    const writer = new FrameWriter(stream);
    await new Promise<void>((resolve) =>
      setImmediate(() => {
        writer.write({ type: "lone" });
        setImmediate(() => {
          expect(calls).toEqual([['{"type":"lone"}\n']]);
          resolve();
        });
      }),
    );
  });

  it("hands a big frame over as it is, between the joined small frames, in the same single write", async () => {
    const { stream, calls } = recordingWritable();
    const writer = new FrameWriter(stream);
    const big = { type: "tool_execution_end", text: "b".repeat(200_000) };
    writer.write({ type: "a" });
    writer.write({ type: "b" });
    writer.write(big);
    writer.write({ type: "c" });
    await tick();
    expect(calls).toHaveLength(1);
    // the big frame's JSON as one piece (its LF apart, joined with what follows)
    expect(calls[0]).toEqual(['{"type":"a"}\n{"type":"b"}\n', JSON.stringify(big), '\n{"type":"c"}\n']);
  });

  it("flush() writes what is batched at once", async () => {
    const { stream, calls } = recordingWritable();
    const writer = new FrameWriter(stream);
    writer.write({ type: "a" });
    expect(writer.pendingBytes).toBeGreaterThan(0);
    const flushed = writer.flush();
    expect(calls).toHaveLength(1);
    await flushed;
    expect(writer.pendingBytes).toBe(0);
  });

  it("under backpressure holds later frames and writes them after drain, nothing lost or reordered", async () => {
    const { stream, chunks, release } = slowWritable(64);
    const writer = new FrameWriter(stream);
    const frames = Array.from({ length: 300 }, (_, i) => ({ type: "x", i, pad: "p".repeat(i % 40) }));
    for (const [i, frame] of frames.entries()) {
      writer.write(frame);
      if (i % 30 === 29) await tick();
    }
    const flushed = writer.flush();
    await release();
    await flushed;
    expect(chunks.length).toBeLessThan(frames.length);
    expect(chunks.join("")).toBe(frames.map((f) => serializeFrame(f)).join(""));
  });
});

describe("FrameWriter lazy frames", () => {
  it("serialises a lazy frame only when the stream takes it, in order with the others", async () => {
    const { stream, chunks, release } = slowWritable(64);
    const writer = new FrameWriter(stream);
    const made: number[] = [];
    const lazy = (i: number) => () => {
      made.push(i);
      return serializeFrame({ type: "lazy", i, pad: "x".repeat(100) });
    };
    writer.write({ type: "first", pad: "y".repeat(200) });
    await tick(); // the first frame fills the stream: it asks the writer to wait for drain
    writer.writeLazy(lazy(1));
    writer.write({ type: "eager" });
    writer.writeLazy(lazy(2));
    await tick();
    // the lazy frames wait unserialised, the eager one waits behind them
    expect(made).toEqual([]);
    const flushed = writer.flush();
    await release();
    await flushed;
    expect(made).toEqual([1, 2]);
    expect(chunks.join("").split("\n").filter(Boolean).map((l) => JSON.parse(l).type)).toEqual(["first", "lazy", "eager", "lazy"]);
  });

  it("writes lazy frames of an idle stream in the same write as the rest of the turn", async () => {
    const { stream, calls } = recordingWritable();
    const writer = new FrameWriter(stream);
    writer.write({ type: "a" });
    writer.writeLazy(() => [serializeFrame({ type: "b" }), serializeFrame({ type: "c" })]);
    writer.write({ type: "d" });
    await tick();
    expect(calls).toEqual([['{"type":"a"}\n{"type":"b"}\n{"type":"c"}\n{"type":"d"}\n']]);
  });
});

describe("FrameWriter big frames", () => {
  it("hands a big frame over in slices, one after the other as the stream drains, bytes unchanged", async () => {
    const { stream, chunks, release } = slowWritable(64);
    const writer = new FrameWriter(stream);
    // an emoji straddles the first slice boundary: a slice never ends inside a surrogate pair
    const text = "a".repeat(1024 * 1024 - 30) + "\u{1F600}".repeat(20) + "b".repeat(2 * 1024 * 1024);
    const frame = { type: "tool_execution_end", text };
    writer.write({ type: "before" });
    writer.write(frame);
    writer.write({ type: "after" });
    const flushed = writer.flush();
    expect(chunks.length).toBeLessThan(3); // the rest waits for drain
    await release();
    await flushed;
    expect(chunks.join("")).toBe(serializeFrame({ type: "before" }) + serializeFrame(frame) + serializeFrame({ type: "after" }));
    for (const chunk of chunks) {
      expect(chunk.length).toBeLessThanOrEqual(1024 * 1024 + 1);
      expect(/^[\uDC00-\uDFFF]/.test(chunk) || /[\uD800-\uDBFF]$/.test(chunk)).toBe(false);
    }
  });
});

describe("lazyFrameLines", () => {
  it("writes a frame holding a very big string in pieces, the same bytes as serializeFrame", async () => {
    const { stream, chunks, release } = slowWritable(64);
    const writer = new FrameWriter(stream);
    const text = "line\u2028sep\u2029\u{1F600}\"q\"\n".repeat(200_000);
    const frame = { type: "message_end", message: { role: "toolResult", content: [{ type: "text", text }] } };
    const lines = lazyFrameLines(frame);
    expect(Array.isArray(lines)).toBe(false); // an iterator: never the whole line at once
    writer.write({ type: "before" });
    writer.writeLazy(() => lines);
    writer.write({ type: "after" });
    const flushed = writer.flush();
    await release();
    await flushed;
    expect(chunks.join("")).toBe(serializeFrame({ type: "before" }) + serializeFrame(frame) + serializeFrame({ type: "after" }));
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThan(text.length);
  });

  it("a small frame is one line as frameLines makes it", () => {
    expect(lazyFrameLines({ type: "x" })).toEqual(['{"type":"x"}\n']);
  });
});
