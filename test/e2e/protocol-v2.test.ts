// Protocol version 2 framing, the event filter, message paging and the pi 0.87 commands, against
// the built CLI and the scripted SSE server. A run whose host tool returns 6 MiB is made once in
// version 1 and once after `negotiate_protocol 2`: the version 2 lines never exceed 1 MiB and,
// reassembled (rpc_chunk) and expanded (agent_end refers to streamed messages), they carry exactly
// what version 1 wrote.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ChunkDecoder, MAX_FRAME_BYTES } from "../../src/transport/chunked-frames.js";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

const ECHO = {
  name: "echo_host",
  description: "Return a big blob from the host",
  parameters: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
};
const BIG = "0123456789abcdef".repeat(6 * 65536); // 6 MiB

async function start(): Promise<{ p: Pith; lineBytes: number[] }> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt"] });
  open.push(p);
  // Raw stdout line sizes (the harness parses lines; here the bytes on the wire are counted).
  const lineBytes: number[] = [];
  let partial = 0;
  p.child.stdout.on("data", (chunk: Buffer) => {
    let at = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, at)) {
      lineBytes.push(partial + (nl - at) + 1);
      partial = 0;
      at = nl + 1;
    }
    partial += chunk.length - at;
  });
  return { p, lineBytes };
}

/** One run through the host tool: the model calls it, the host answers with BIG, the model replies. */
async function bigRun(p: Pith): Promise<number> {
  llm.enqueue({ toolCalls: [{ id: "call_big", name: "echo_host", arguments: { message: "blob" } }] });
  llm.enqueue({ text: "got it" });
  const from = p.frames.length;
  expect((await p.request({ type: "prompt", message: "fetch the blob" })).success).toBe(true);
  // The host_tool_call is small: it arrives whole in both versions.
  const call = await p.waitFor((f) => f.type === "host_tool_call", 15_000, from);
  p.send({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text: BIG }] } });
  // agent_end is small in version 2 too (it refers to the streamed messages).
  await p.waitIdle(60_000, from);
  return from;
}
/** Logical frames from physical ones: chunks reassembled. */
function reassemble(frames: Frame[]): Frame[] {
  const decoder = new ChunkDecoder();
  const out: Frame[] = [];
  for (const f of frames) {
    const whole = decoder.push(f);
    if (whole) out.push(whole as Frame);
  }
  expect(decoder.inSequence).toBe(false);
  return out;
}

/** Version 2's agent_end back to version 1's: the streamed message_end messages come first. */
function expandAgentEnds(frames: Frame[]): Frame[] {
  let streamed: unknown[] = [];
  return frames.map((f) => {
    if (f.type === "agent_start") streamed = [];
    if (f.type === "message_end") streamed.push(f.message);
    if (f.type !== "agent_end" || f.messageCount === undefined) return f;
    const { messageCount, ...rest } = f;
    const messages = [...streamed.slice(0, messageCount - f.messages.length), ...f.messages];
    expect(messages).toHaveLength(messageCount);
    return { ...rest, messages };
  });
}

/** What differs between two identical runs: times, generated ids. */
function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      if (k === "timestamp" || k === "id" || k === "responseId" || k === "duration" || k === "durationMs" || k === "ttft" || k === "promptId" || k === "messageId") continue;
      out[k] = normalize(v);
    }
    return out;
  }
  return value;
}

/** A request under version 2 framing: its response may arrive as chunks. */
async function requestV2(p: Pith, cmd: Frame): Promise<Frame> {
  const id = `v2_${Math.random().toString(36).slice(2)}`;
  const from = p.frames.length;
  p.send({ ...cmd, id });
  const isIt = (f: Frame) => f.type === "response" && f.id === id;
  await p.waitFor((f) => isIt(f) || (f.type === "rpc_chunk" && f.index === f.count - 1 && reassemble(p.frames.slice(from)).some(isIt)), 60_000, from);
  return reassemble(p.frames.slice(from)).find(isIt)!;
}

const runFrames = (frames: Frame[]) => frames.filter((f) => f.type !== "response" && f.type !== "host_tool_call");

describe("protocol version 2 framing", () => {
  it("ready offers version 2; other versions fail with oh-my-pi's text", async () => {
    const { p } = await start();
    expect(p.frames[0]).toMatchObject({
      type: "ready",
      protocolVersion: 1,
      supportedProtocolVersions: [1, 2],
      maxFrameBytes: 1048576,
      maxReassembledFrameBytes: 67108864,
      capabilities: expect.arrayContaining(["protocol_v2", "event_filter", "prompt_result", "heartbeat"]),
    });
    const bad = await p.request({ type: "negotiate_protocol", protocolVersion: 3 });
    expect(bad).toMatchObject({ success: false, error: "Unsupported RPC protocol version: 3" });
    const ok = await p.request({ type: "negotiate_protocol", protocolVersion: 2 });
    expect(ok).toMatchObject({ success: true, data: { protocolVersion: 2 } });
  });

  it("a 6 MiB tool result and get_messages arrive in ≤ 1 MiB lines that reassemble to the version 1 content", async () => {
    const { p, lineBytes } = await start();
    expect((await p.request({ type: "set_host_tools", tools: [ECHO] })).success).toBe(true);

    // Version 1: one line per frame, however large.
    const v1From = await bigRun(p);
    const v1Run = runFrames(p.frames.slice(v1From));
    const v1Messages = await p.request({ type: "get_messages" }, 60_000);
    expect(Math.max(...lineBytes)).toBeGreaterThan(6 * 1024 * 1024);

    expect((await p.request({ type: "negotiate_protocol", protocolVersion: 2 })).success).toBe(true);
    const linesBefore = lineBytes.length;
    const v2From = await bigRun(p);
    const getFrom = p.frames.length;
    p.send({ type: "get_messages", id: "msgs-v2" });
    await p.waitFor((f) => f.type === "rpc_chunk" && f.index === f.count - 1, 60_000, getFrom);
    await p.request({ type: "get_state" });

    // No line after the switch exceeds 1 MiB, and big frames did travel as chunks.
    expect(Math.max(...lineBytes.slice(linesBefore))).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(p.frames.slice(v2From).filter((f) => f.type === "rpc_chunk").length).toBeGreaterThan(40);

    const v2 = reassemble(p.frames.slice(v2From));
    const v2Run = expandAgentEnds(runFrames(v2.slice(0, v2.findIndex((f) => f.type === "response" && f.id === "msgs-v2"))));
    // agent_end was compacted: it did not repeat the 6 MiB messages.
    const compactEnd = runFrames(v2).find((f) => f.type === "agent_end")!;
    expect(compactEnd.messageCount).toBe(4);
    expect(compactEnd.messages).toEqual([]);

    const toolEnd = v2Run.find((f) => f.type === "tool_execution_end")!;
    expect(toolEnd.result.content[0].text).toBe(BIG);
    expect(normalize(v2Run)).toEqual(normalize(v1Run));

    const v2Messages = v2.find((f) => f.type === "response" && f.id === "msgs-v2")!;
    expect(v2Messages.data.messages.slice(0, v1Messages.data.messages.length)).toEqual(v1Messages.data.messages);
    expect(normalize(v2Messages.data.messages.slice(v1Messages.data.messages.length))).toEqual(normalize(v1Messages.data.messages));

    // Paging reads the same context; a page holding a 6 MiB message is chunked like any frame.
    const paged: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await requestV2(p, { type: "get_messages_page", cursor, limit: 256 });
      expect(page.success).toBe(true);
      paged.push(...page.data.messages);
      cursor = page.data.nextCursor;
      pages++;
    } while (cursor);
    expect(paged).toEqual(v2Messages.data.messages);
    expect(pages).toBeGreaterThan(2);
    // A cursor from an older snapshot is refused with oh-my-pi's code.
    const first = await requestV2(p, { type: "get_messages_page", limit: 1 });
    llm.enqueue({ text: "more" });
    await p.promptAndWait("one more", {}, 60_000);
    const stale = await requestV2(p, { type: "get_messages_page", cursor: first.data.nextCursor });
    expect(stale).toMatchObject({ success: false, error: "RPC message cursor is stale", code: "stale_cursor" });
  }, 240_000);
});

describe("set_event_filter", () => {
  it("writes only the selected event types; responses always pass; null restores everything", async () => {
    const { p } = await start();
    const res = await p.request({ type: "set_event_filter", events: ["agent_end", "tool_execution_end"] });
    expect(res).toMatchObject({ success: true, data: { events: ["agent_end", "tool_execution_end"] } });
    const bad = await p.request({ type: "set_event_filter", events: [""] });
    expect(bad).toMatchObject({ success: false, error: "events must be null or an array of non-empty event type strings" });

    llm.enqueue({ text: "filtered reply" });
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: "hi" })).success).toBe(true);
    await p.waitIdle(30_000, from);
    const types = new Set(p.frames.slice(from).map((f) => f.type));
    expect(types.has("agent_end")).toBe(true);
    for (const t of ["agent_start", "turn_start", "message_start", "message_update", "message_end", "turn_end"]) {
      expect(types.has(t)).toBe(false);
    }

    expect(await p.request({ type: "set_event_filter", events: null })).toMatchObject({ success: true, data: { events: null } });
    llm.enqueue({ text: "full reply" });
    const all = p.frames.length;
    await p.promptAndWait("again");
    const after = new Set(p.frames.slice(all).map((f) => f.type));
    for (const t of ["agent_start", "turn_start", "message_start", "message_update", "message_end", "turn_end", "agent_end"]) {
      expect(after.has(t)).toBe(true);
    }
  }, 60_000);
});

describe("pi 0.87 commands", () => {
  it("answers get_available_thinking_levels, clear_queue, get_entries and get_tree with pi's shapes", async () => {
    const { p } = await start();
    const levels = await p.request({ type: "get_available_thinking_levels" });
    expect(levels.success).toBe(true);
    expect(levels.data.levels[0]).toBe("off");

    const cleared = await p.request({ type: "clear_queue" });
    expect(cleared).toMatchObject({ success: true, data: { steering: [], followUp: [] } });

    llm.enqueue({ text: "first" });
    await p.promptAndWait("hello");
    const entries = await p.request({ type: "get_entries" });
    expect(entries.success).toBe(true);
    const list = entries.data.entries as Frame[];
    expect(list.length).toBeGreaterThanOrEqual(2);
    expect(entries.data.leafId).toBe(list.at(-1)!.id);
    const since = await p.request({ type: "get_entries", since: list[0].id });
    expect(since.data.entries).toEqual(list.slice(1));
    const tree = await p.request({ type: "get_tree" });
    expect(tree.data.leafId).toBe(entries.data.leafId);
    const count = (nodes: Frame[]): number => nodes.reduce((n, node) => n + 1 + count(node.children), 0);
    expect(count(tree.data.tree)).toBe(list.length);
    expect(tree.data.tree[0].entry).toEqual(list[0]);
    const commands = await p.request({ type: "get_available_commands" });
    expect(commands).toMatchObject({ success: true, data: { commands: [] } });
  }, 60_000);
});

// An extension that registers one command at load and another when that command runs.
const COMMANDS_EXTENSION = `
export default function commands(pi) {
  pi.registerCommand("deploy", {
    description: "Deploy a service",
    handler: async (_args, ctx) => {
      pi.registerCommand("rollback", { description: "Undo the deploy", handler: async () => {} });
      ctx.ui.notify("deployed");
    },
  });
}
`;

describe("available_commands_update", () => {
  it("is written when extensions attach with commands and again when the list changes", async () => {
    const dir = tempDir("pith-cmds-ext-");
    const file = path.join(dir, "commands.ts");
    writeFileSync(file, COMMANDS_EXTENSION);
    const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-openai", "--model", "fake-gpt", "-e", file] });
    open.push(p);
    const first = await p.waitFor((f) => f.type === "available_commands_update", 15_000);
    expect(first.commands).toEqual([{ name: "deploy", description: "Deploy a service", input: { hint: "arguments" }, source: "extension" }]);
    expect((await p.request({ type: "get_available_commands" })).data).toEqual({ commands: first.commands });

    const from = p.frames.length;
    await p.request({ type: "prompt", message: "/deploy api" });
    const second = await p.waitFor((f) => f.type === "available_commands_update", 15_000, from);
    expect(second.commands.map((c: Frame) => c.name)).toEqual(["deploy", "rollback"]);
    await p.request({ type: "get_state" });
    expect(p.events("available_commands_update").length).toBe(2);
  }, 60_000);
});
