// The stdio transport's delivery order: the SDK handles notifications a microtask later than
// responses, so a progress notification and its call's response written in one chunk must not
// reach the client in an order where the response wins (the last progress update was lost).
import { describe, expect, it } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { GroupStdioTransport } from "./stdio-transport.js";

const LINES = [
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
  { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 2 } },
  { jsonrpc: "2.0", id: 1, result: { content: [] } },
];

describe("GroupStdioTransport", () => {
  it("lets a notification's (microtask) handler run before the next message, even within one chunk; a close delivers the rest first", async () => {
    // One write with all three lines, then exit: the close must not drop what is still buffered.
    const script = `process.stdout.write(${JSON.stringify(LINES.map((l) => JSON.stringify(l) + "\n").join(""))}, () => process.exit(0))`;
    const t = new GroupStdioTransport({ command: process.execPath, args: ["-e", script], env: { PATH: process.env.PATH ?? "" }, cwd: process.cwd(), onStderr: () => {}, onSpawn: () => {}, killGraceMs: 200 });
    const seen: string[] = [];
    const closed = new Promise<void>((resolve) => (t.onclose = resolve));
    t.onmessage = (m: JSONRPCMessage) => {
      if ("method" in m) {
        const p = (m.params as { progress: number }).progress;
        // The SDK's dispatch: Promise.resolve().then(() => handler(notification)).
        void Promise.resolve().then(() => seen.push(`progress ${p}`));
      } else seen.push("response");
    };
    await t.start();
    await closed;
    expect(seen).toEqual(["progress 1", "progress 2", "response"]);
    await t.close();
  });
});
