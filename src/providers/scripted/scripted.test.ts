import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AssistantMessageEvent } from "../../shared/types.js";
import type { LlmContext, StreamOptions } from "../types.js";
import { createScriptedStream, scriptedModel, scriptPath } from "./index.js";
import type { StreamFn } from "../types.js";

let dir: string;
let streamScripted: StreamFn;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "pith-scripted-"));
  streamScripted = createScriptedStream();
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const context: LlmContext = { systemPrompt: "You are a test.", messages: [{ role: "user", content: "hi", timestamp: 0 }], tools: [] };

function script(data: unknown): ReturnType<typeof scriptedModel> {
  writeFileSync(join(dir, "s.json"), JSON.stringify(data));
  return scriptedModel("s.json", dir);
}
async function collect(model: ReturnType<typeof scriptedModel>, options: StreamOptions = {}): Promise<AssistantMessageEvent[]> {
  const out: AssistantMessageEvent[] = [];
  for await (const e of streamScripted(model, context, options)) out.push(e);
  return out;
}
const last = (events: AssistantMessageEvent[]) => events[events.length - 1];

describe("scripted provider", () => {
  it("plays replies in order across calls, then fails when exhausted", async () => {
    const model = script({ replies: [{ thinking: "hmm", text: "Hello there world" }, { text: ["a", "b"] }] });
    const first = await collect(model);
    expect(first.map((e) => e.type)).toEqual([
      "start", "thinking_start", "thinking_delta", "thinking_end",
      "text_start", "text_delta", "text_delta", "text_delta", "text_end", "done",
    ]);
    const done = last(first);
    expect(done.type === "done" && done.message).toMatchObject({
      role: "assistant", api: "scripted", provider: "scripted", model: "s.json", stopReason: "stop",
      content: [{ type: "thinking", thinking: "hmm" }, { type: "text", text: "Hello there world" }],
    });
    if (done.type === "done") expect(done.message.usage.input).toBeGreaterThan(0);
    const second = await collect(model);
    expect(second.filter((e) => e.type === "text_delta").map((e) => (e as { delta: string }).delta)).toEqual(["a", "b"]);
    const third = last(await collect(model));
    expect(third).toMatchObject({ type: "error", reason: "error" });
    if (third.type === "error") {
      expect(third.error.stopReason).toBe("error");
      expect(third.error.errorMessage).toBe(`Scripted provider: script ${join(dir, "s.json")} has no more replies`);
    }
  });

  it("streams tool calls and stops with toolUse", async () => {
    const model = script({ replies: [{ toolCalls: [{ name: "ls", arguments: { path: "." } }], usage: { input: 7, output: 3 } }] });
    const events = await collect(model);
    expect(events.map((e) => e.type)).toEqual(["start", "toolcall_start", "toolcall_delta", "toolcall_delta", "toolcall_end", "done"]);
    const deltas = events.filter((e) => e.type === "toolcall_delta").map((e) => (e as { delta: string }).delta).join("");
    expect(JSON.parse(deltas)).toEqual({ path: "." });
    const end = events.find((e) => e.type === "toolcall_end");
    expect(end?.type === "toolcall_end" && end.toolCall).toMatchObject({ type: "toolCall", name: "ls", arguments: { path: "." } });
    const done = last(events);
    expect(done).toMatchObject({ type: "done", reason: "toolUse", message: { stopReason: "toolUse", usage: { input: 7, output: 3, totalTokens: 10 } } });
  });

  it("ends a reply with a scripted error after its content", async () => {
    const events = await collect(script({ replies: [{ text: "partial", error: "boom" }] }));
    expect(last(events)).toMatchObject({ type: "error", reason: "error", error: { stopReason: "error", errorMessage: "boom", content: [{ type: "text", text: "partial" }] } });
  });

  it("loops when asked", async () => {
    const model = script({ replies: [{ text: "one" }], loop: true });
    for (let i = 0; i < 3; i++) expect(last(await collect(model)).type).toBe("done");
  });

  it("aborts during a delay with stopReason aborted", async () => {
    const model = script({ replies: [{ text: "never", delayMs: 60_000 }] });
    const ac = new AbortController();
    const events: AssistantMessageEvent[] = [];
    for await (const e of streamScripted(model, context, { signal: ac.signal })) {
      events.push(e);
      if (e.type === "start") ac.abort();
    }
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
    expect(last(events)).toMatchObject({ type: "error", reason: "aborted", error: { stopReason: "aborted", errorMessage: "Request was aborted", content: [] } });
  });

  it("aborts between chunks, keeping the partial content", async () => {
    const model = script({ replies: [{ text: ["a", "b", "c"], chunkDelayMs: 60_000 }] });
    const ac = new AbortController();
    const events: AssistantMessageEvent[] = [];
    for await (const e of streamScripted(model, context, { signal: ac.signal })) {
      events.push(e);
      if (e.type === "text_start") ac.abort();
    }
    expect(last(events)).toMatchObject({ type: "error", reason: "aborted", error: { stopReason: "aborted", content: [{ type: "text", text: "" }] } });
  });

  it("reports a missing or invalid script as an error event", async () => {
    const missing = last(await collect(scriptedModel("nope.json", dir)));
    expect(missing).toMatchObject({ type: "error", reason: "error" });
    expect(missing.type === "error" && missing.error.errorMessage).toMatch(/cannot read script/);
    const bad = last(await collect(script({ replies: [{ toolCalls: [{ arguments: {} }] }] })));
    expect(bad.type === "error" && bad.error.errorMessage).toMatch(/replies\[0\]\.toolCalls\[0\] needs a string "name"/);
  });

  it("ships an example that calls ls and then answers", async () => {
    const path = fileURLToPath(new URL("../../../examples/scripted/tool-then-answer.json", import.meta.url));
    const model = scriptedModel(path, dir);
    expect(scriptPath(model)).toBe(path);
    const first = last(await collect(model));
    expect(first).toMatchObject({ type: "done", reason: "toolUse" });
    expect(first.type === "done" && first.message.content.find((c) => c.type === "toolCall")).toMatchObject({ name: "ls", arguments: { path: "." } });
    const second = last(await collect(model));
    expect(second).toMatchObject({ type: "done", reason: "stop" });
  });
});
