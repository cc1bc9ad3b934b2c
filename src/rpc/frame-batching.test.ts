// Frame batching changes write boundaries only: one run written through a batching FrameWriter
// and an unbatched one at the same time (a tee under the RPC server) gives the same bytes, frame
// for frame, while the batching side makes fewer writes and every write ends on a whole frame.
import { PassThrough, Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { fakeTool, scriptedStream, type Reply } from "../../test/support/agent.js";
import { testSession } from "../../test/support/session.js";
import { FrameWriter, JsonlLineSplitter, type LazyFrame, type Transport } from "../transport/index.js";
import { RpcServer } from "./server.js";

/** Records every write call (a writev counts once) as the list of chunks it carried. */
function recorder() {
  const calls: string[][] = [];
  const stream = new Writable({
    decodeStrings: false,
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

async function* lines(input: PassThrough) {
  const splitter = new JsonlLineSplitter();
  for await (const chunk of input) yield* splitter.push(chunk as Buffer);
  yield* splitter.end();
}

describe("frame batching", () => {
  it("a run's frames are byte-identical with batching on and off; only the write boundaries differ", async () => {
    const on = recorder();
    const off = recorder();
    const batched = new FrameWriter(on.stream);
    const unbatched = new FrameWriter(off.stream, { batch: false });
    const tee = {
      write: (frame: object) => (batched.write(frame), unbatched.write(frame)),
      writeSerialized: (text: string) => (batched.writeSerialized(text), unbatched.writeSerialized(text)),
      writeLazy: (produce: LazyFrame) => (batched.writeLazy(produce), unbatched.writeLazy(produce)),
      get pendingBytes() {
        return batched.pendingBytes;
      },
      flush: () => Promise.all([batched.flush(), unbatched.flush()]).then(() => undefined),
      get closed() {
        return batched.closed;
      },
    };
    const input = new PassThrough();
    const transport: Transport = { lines: lines(input), writer: tee as unknown as FrameWriter, close: () => tee.flush() };
    const call = (id: string, path: string) => ({ toolCall: { id, name: "probe", args: { path } } });
    const replies: Reply[] = [
      { steps: [{ thinking: "let me look" }, { text: "reading", chunks: ["re", "ad", "ing"] }, call("c1", "a"), call("c2", "b")] },
      { steps: [{ wait: 2 }, call("c3", "c")] },
      { steps: [{ text: "done", chunks: ["do", "ne"] }] },
    ];
    const { session } = testSession({ stream: scriptedStream(replies).stream, tools: [fakeTool("probe")] });
    const server = new RpcServer(session, transport, { log: () => undefined });
    server.ready("test");
    const served = server.serve();
    input.write(JSON.stringify({ id: "s", type: "get_state" }) + "\n");
    input.write(JSON.stringify({ id: "p", type: "prompt", message: "go" }) + "\n");
    await session.waitForIdle();
    input.write(JSON.stringify({ id: "m", type: "get_messages" }) + "\n");
    input.end();
    expect(await served).toBe(0);

    const bytesOn = on.calls.flat().join("");
    const bytesOff = off.calls.flat().join("");
    expect(bytesOn).toBe(bytesOff);
    const frames = bytesOff.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(frames.filter((f) => f.type === "tool_execution_end")).toHaveLength(3);
    expect(frames.some((f) => f.type === "response" && f.id === "m")).toBe(true);
    // unbatched: one write per frame; batched: fewer writes, each ending on a frame boundary
    expect(off.calls.length).toBe(frames.length);
    expect(on.calls.length).toBeLessThan(frames.length / 2);
    for (const call of on.calls) expect(call.join("").endsWith("\n")).toBe(true);
  });
});
