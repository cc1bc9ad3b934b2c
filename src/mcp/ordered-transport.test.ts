// OrderedTransport: a notification's handler (run a microtask later, as the SDK does) comes
// before the message that followed it in the same turn; a close waits for what came before it.
import { describe, expect, it } from "vitest";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { OrderedTransport } from "./ordered-transport.js";

class FakeTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  sent: JSONRPCMessage[] = [];
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    this.sent.push(message);
  }
  async close(): Promise<void> {}
}

const progress = (p: number): JSONRPCMessage => ({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: p } });
const response: JSONRPCMessage = { jsonrpc: "2.0", id: 1, result: {} };

function observe(t: OrderedTransport<FakeTransport>): string[] {
  const seen: string[] = [];
  t.onmessage = (m) => {
    // The SDK's dispatch: notifications a microtask later, responses at once.
    if ("method" in m) void Promise.resolve().then(() => seen.push(`progress ${(m.params as { progress: number }).progress}`));
    else seen.push("response");
  };
  t.onclose = () => seen.push("close");
  return seen;
}

describe("OrderedTransport", () => {
  it("delivers notifications and the response written in one turn in their order, then the close", async () => {
    const inner = new FakeTransport();
    const t = new OrderedTransport(inner);
    const seen = observe(t);
    for (const m of [progress(1), progress(2), response]) inner.onmessage?.(m);
    inner.onclose?.();
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(["progress 1", "progress 2", "response", "close"]);
  });

  it("without the wrapper the response would win (the bug it exists for)", async () => {
    const inner = new FakeTransport();
    const seen: string[] = [];
    inner.onmessage = (m) => ("method" in m ? void Promise.resolve().then(() => seen.push("progress")) : seen.push("response"));
    for (const m of [progress(1), response]) inner.onmessage?.(m);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(["response", "progress"]);
  });

  it("passes sends, errors and the session id through", async () => {
    const inner = new FakeTransport();
    const t = new OrderedTransport(inner);
    const errors: string[] = [];
    t.onerror = (e) => errors.push(e.message);
    await t.send(response);
    inner.onerror?.(new Error("boom"));
    expect(inner.sent).toEqual([response]);
    expect(errors).toEqual(["boom"]);
    expect(t.sessionId).toBeUndefined();
  });
});
