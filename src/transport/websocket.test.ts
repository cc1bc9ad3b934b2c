import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket, WebSocketServer } from "ws";
import type { LineItem } from "./jsonl-reader.js";
import { createWebSocketTransport, type WebSocketTransportOptions } from "./websocket.js";

const servers: WebSocketServer[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    for (const c of s.clients) c.terminate();
    await new Promise((r) => s.close(r));
  }
});

/** A server-side transport and the client socket talking to it. */
async function pair(options: WebSocketTransportOptions = {}) {
  const wss = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  servers.push(wss);
  await once(wss, "listening");
  const accepted = once(wss, "connection");
  const client = new WebSocket(`ws://127.0.0.1:${(wss.address() as AddressInfo).port}`);
  await once(client, "open");
  const [socket] = (await accepted) as [WebSocket];
  return { transport: createWebSocketTransport(socket, options), client, socket };
}

describe("websocket transport", () => {
  it("reads each text message as one line and sends each frame as one message", async () => {
    const { transport, client } = await pair({ maxMessageBytes: 64 });
    const got: string[] = [];
    client.on("message", (d) => got.push(String(d)));
    client.send('{"type":"get_state","id":"1"}');
    client.send("   ");
    client.send("x".repeat(65));
    client.send(Buffer.from("{}"), { binary: true });
    client.send('{"text":"a\\nb\u2028"}');
    client.close();
    const items: LineItem[] = [];
    for await (const item of transport.lines) items.push(item);
    expect(items[0]).toEqual({ line: '{"type":"get_state","id":"1"}' });
    expect(items[1]).toEqual({ error: expect.stringContaining("maximum frame size of 64 bytes") });
    expect(items[2]).toEqual({ error: expect.stringContaining("Binary WebSocket messages") });
    expect(items[3]).toEqual({ line: '{"text":"a\\nb\u2028"}' });
    expect(items).toHaveLength(4);
  });

  it("a frame the writer hands over in slices still goes out as one whole message", async () => {
    const { transport, client } = await pair();
    const got: string[] = [];
    client.on("message", (d) => got.push(String(d)));
    const big = "y".repeat(3 * 1024 * 1024 + 17);
    transport.writer.write({ i: 0 });
    transport.writer.write({ i: 1, big });
    transport.writer.write({ i: 2 });
    await transport.writer.flush();
    await new Promise<void>((resolve) => {
      const check = () => (got.length >= 3 ? resolve() : setImmediate(check));
      check();
    });
    expect(got.map((m) => JSON.parse(m).i)).toEqual([0, 1, 2]);
    expect(JSON.parse(got[1]).big).toBe(big);
  });

  it("writes frames in order, one message each, with separators escaped", async () => {
    const { transport, client } = await pair();
    const got: string[] = [];
    client.on("message", (d) => got.push(String(d)));
    for (let i = 0; i < 100; i++) transport.writer.write({ i, text: "x\u2028\ny" });
    await transport.writer.flush();
    await new Promise<void>((resolve) => {
      const check = () => (got.length === 100 ? resolve() : setImmediate(check));
      check();
    });
    expect(got.map((m) => JSON.parse(m).i)).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(got[0]).toBe('{"i":0,"text":"x\\u2028\\ny"}');
  });

  it("stops sending and reports once when a peer that does not read leaves more than the bound unsent", async () => {
    const overflows: number[] = [];
    const { transport, client } = await pair({ maxBufferedBytes: 256 * 1024, onOverflow: (n) => overflows.push(n) });
    // the client stops reading: its socket is paused, the kernel buffers fill, then ours
    (client as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = "y".repeat(16 * 1024);
    let i = 0;
    while (overflows.length === 0 && i < 100_000) {
      transport.writer.write({ i: i++, big });
      if (i % 64 === 0) await new Promise((r) => setImmediate(r));
    }
    expect(overflows).toHaveLength(1);
    expect(overflows[0]).toBeGreaterThan(256 * 1024);
    const before = transport.outboundBytes;
    for (let j = 0; j < 100; j++) transport.writer.write({ j, big });
    expect(transport.outboundBytes).toBe(before);
  });

  it("reports a stall once when frames wait and the peer reads none of them for stallMs", async () => {
    const overflows: string[] = [];
    const { transport, client } = await pair({ stallMs: 200, onOverflow: (_n, why) => overflows.push(why) });
    (client as unknown as { _socket: { pause(): void } })._socket.pause();
    const big = "z".repeat(64 * 1024);
    const t0 = Date.now();
    while (overflows.length === 0 && Date.now() - t0 < 10_000) {
      if (transport.outboundBytes < 4 * 1024 * 1024) transport.writer.write({ big });
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(overflows).toEqual(["stalled"]);
  });
});
