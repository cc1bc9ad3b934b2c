import { describe, expect, it } from "vitest";
import { createMemoryTransport } from "./memory.js";
import { createStdioTransport } from "./stdio.js";
import { PassThrough } from "node:stream";

describe("memory transport", () => {
  it("delivers host bytes as lines and agent frames as parsed objects", async () => {
    const { transport, host } = createMemoryTransport({ outputHighWaterMark: 32 });
    host.send({ id: "1", type: "get_state" });
    host.send('{"type":"abort"}\r\n\n{"bad"');
    host.send(Buffer.from([0xe2, 0x80]));
    host.end();
    const seen = [];
    for await (const item of transport.lines) seen.push(item);
    expect(seen).toEqual([{ line: '{"id":"1","type":"get_state"}' }, { line: '{"type":"abort"}' }, { line: '{"bad"\ufffd' }]);

    for (let i = 0; i < 50; i++) transport.writer.write({ type: "response", command: "x", success: true, data: { i } });
    const last = host.waitFor((f) => f.data?.i === 49);
    await transport.close();
    await host.outputClosed;
    expect(await last).toMatchObject({ data: { i: 49 } });
    expect(host.frames.map((f: any) => f.data.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("reports a broken output once through onWriteError", async () => {
    const errors: string[] = [];
    const { transport, host } = createMemoryTransport({ onWriteError: (e) => errors.push(e.message) });
    host.breakOutput();
    await host.outputClosed;
    transport.writer.write({ type: "agent_start" });
    await transport.writer.flush();
    expect(errors).toEqual(["write EPIPE"]);
  });
});

describe("stdio transport", () => {
  it("reads the given stdin and writes the given stdout", async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const transport = createStdioTransport({ stdin, stdout });
    stdin.end('{"type":"get_state"}');
    const seen = [];
    for await (const item of transport.lines) seen.push(item);
    expect(seen).toEqual([{ line: '{"type":"get_state"}' }]);
    transport.writer.write({ type: "ready", version: "1" });
    await transport.close();
    expect(stdout.read().toString()).toBe('{"type":"ready","version":"1"}\n');
  });
});
