// The TypeScript client with `protocolVersion: 2` against the built CLI: it negotiates version 2,
// reassembles chunked frames and restores agent_end's messages, so promptAndWait, get_messages and
// listeners see what version 1 delivers; the event filter and message paging helpers work.
import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { RpcClient } from "../../src/client/index.js";

const CLI = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/cli.js");
const open: RpcClient[] = [];
afterEach(async () => {
  for (const c of open.splice(0)) await c.close();
});
const temp = (prefix: string) => mkdtempSync(path.join(tmpdir(), prefix));
const BIG = "x".repeat(3 * 1024 * 1024);

async function startPith(replies: object[], protocolVersion: 1 | 2): Promise<RpcClient> {
  const cwd = temp("pith-v2-cwd-");
  const home = temp("pith-v2-home-");
  writeFileSync(path.join(cwd, "script.json"), JSON.stringify({ replies }));
  const client = new RpcClient({
    cliPath: CLI,
    cwd,
    env: { PATH: process.env.PATH, HOME: home, PITH_HOME: home },
    args: ["--provider", "scripted", "--model", "script.json"],
    protocolVersion,
  });
  open.push(client);
  await client.start();
  return client;
}

describe("TypeScript client, protocol version 2", () => {
  it("negotiates version 2 and delivers a 3 MiB tool result as version 1 would", async () => {
    const client = await startPith([{ toolCalls: [{ name: "blob_host", arguments: {} }] }, { text: "Done." }], 2);
    expect(client.protocolVersion).toBe(2);
    expect(client.readyFrame).toMatchObject({ supportedProtocolVersions: [1, 2], maxFrameBytes: 1048576 });
    await client.setHostTools([
      { name: "blob_host", description: "A big blob", parameters: { type: "object" }, execute: async () => ({ content: [{ type: "text", text: BIG }] }) },
    ]);
    const chunks: number[] = [];
    client.onAny((f) => {
      if (f.type === "rpc_chunk") chunks.push(1);
    });
    const ends: any[] = [];
    client.on("tool_execution_end", (f) => ends.push(f));
    const messages = await client.promptAndWait("Fetch the blob", { timeoutMs: 60_000 });
    expect(chunks).toEqual([]); // listeners only ever see logical frames
    expect(ends[0].result.content[0].text).toBe(BIG);
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect((messages[2] as any).content[0].text).toBe(BIG);
    const all = await client.getMessages();
    expect(all.messages).toEqual(messages);
    const paged = [];
    for await (const m of client.iterateMessages()) paged.push(m);
    expect(paged).toEqual(all.messages);
  }, 120_000);

  it("setEventFilter keeps only the chosen events", async () => {
    const client = await startPith([{ text: "One." }, { text: "Two." }], 1);
    expect(client.protocolVersion).toBe(1);
    expect(await client.setEventFilter(["agent_end"])).toEqual({ events: ["agent_end"] });
    const seen = new Set<string>();
    client.onAny((f) => seen.add(f.type));
    await client.promptAndWait("hi", { timeoutMs: 30_000 });
    expect(seen.has("agent_end")).toBe(true);
    expect(seen.has("message_update")).toBe(false);
    expect(seen.has("agent_start")).toBe(false);
    expect(await client.setEventFilter(null)).toEqual({ events: null });
    await client.promptAndWait("again", { timeoutMs: 30_000 });
    expect(seen.has("message_update")).toBe(true);
  }, 60_000);
});
