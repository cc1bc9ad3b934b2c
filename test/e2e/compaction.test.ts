// Compaction end to end:
// manual `compact`, threshold compaction after a run with auto-continue, overflow recovery,
// abort mid-compaction, reload of a compacted session, and the error answers. The fake LLM
// reports a 10,000-token window; settings make the thresholds reachable with fake usage:
// threshold = 10000 − max(1500, reserveTokens 2000) = 8000 tokens, keep ≈ 50 tokens.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm, type FakeRequest } from "../support/fake-llm-server.js";
import { Pith, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const SETTINGS = { compaction: { keepRecentTokens: 50, reserveTokens: 2000 }, retry: { baseDelayMs: 1 } };
const CONTEXT_WINDOW = 10_000;
const SMALL = { input: 10, output: 5 };
/** Above the 8,000-token threshold; input stays small so the adaptive keep budget is not scaled. */
const BIG = { input: 10, output: 9_000 };

// Each user text estimates at ~100 tokens and each reply at ~10, so with a 50-token keep
// budget the cut lands on the second user message: [u1, a1] are summarised, [u2, a2] kept.
const U1 = `First task: rename the parser module. ${"alpha ".repeat(60)}`;
const A1 = "Renamed src/parser.ts to src/parse.ts.";
const U2 = `Second task: update every import. ${"bravo ".repeat(60)}`;
const A2 = "Updated the imports in src/index.ts.";
const LIFECYCLE = ["agent_start", "agent_end", "auto_compaction_start", "auto_compaction_end", "auto_retry_start"];
const SUMMARY = "## Goal\nRename the parser module (SUMMARY-MARKER-7).";

let llm: FakeLlm;
const open: Pith[] = [];
beforeAll(async () => {
  llm = await startFakeLlmServer();
});
afterAll(async () => {
  await llm.close();
});
afterEach(async () => {
  for (const p of open.splice(0)) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  // A failed test may leave replies queued: start over so the next test is not poisoned.
  if (llm.pending() > 0) {
    await llm.close();
    llm = await startFakeLlmServer();
  }
});

function homeWithSettings(settings: unknown = SETTINGS): string {
  const home = tempDir("pith-home-");
  writeFileSync(path.join(home, "settings.json"), JSON.stringify(settings));
  return home;
}

async function start(opts: { pithHome?: string; args?: string[]; model?: [string, string] } = {}): Promise<Pith> {
  const [provider, model] = opts.model ?? ["fake-openai", "fake-gpt"];
  const p = await Pith.start({
    pithHome: opts.pithHome ?? homeWithSettings(),
    modelsJson: fakeModelsJson(llm.url, { contextWindow: CONTEXT_WINDOW }),
    args: ["--provider", provider, "--model", model, ...(opts.args ?? [])],
  });
  open.push(p);
  return p;
}

/** Two exchanges [u1, a1, u2, a2], both below the threshold. */
async function twoExchanges(p: Pith): Promise<void> {
  llm.enqueue({ text: A1, usage: SMALL });
  await p.promptAndWait(U1);
  llm.enqueue({ text: A2, usage: SMALL });
  await p.promptAndWait(U2);
}

/** The chat messages a request sent (Anthropic's `system` first), with their content flattened to text. */
function chat(req: FakeRequest): { role: string; text: string }[] {
  const system = req.body.system === undefined ? [] : [{ role: "system", text: JSON.stringify(req.body.system) }];
  return system.concat((req.body.messages as Frame[]).map((m) => ({
    role: m.role,
    text: typeof m.content === "string" ? m.content : Array.isArray(m.content) ? m.content.map((c: Frame) => c.text ?? "").join("") : "",
  })));
}

/** The non-system messages of a request as one string, in order. */
function transcript(req: FakeRequest): string {
  return chat(req)
    .filter((m) => m.role !== "system")
    .map((m) => `${m.role}: ${m.text}`)
    .join("\n");
}

/** Asserts that `parts` occur in `text` in this order. */
function expectInOrder(text: string, parts: string[]): void {
  let at = -1;
  for (const part of parts) {
    const next = text.indexOf(part, at + 1);
    expect(next, `"${part.slice(0, 40)}" after position ${at}`).toBeGreaterThan(at);
    at = next;
  }
}

function isSummaryRequest(req: FakeRequest): boolean {
  return chat(req).some((m) => m.role === "user" && m.text.startsWith("<conversation>"));
}

async function roles(p: Pith): Promise<string[]> {
  return (await p.request({ type: "get_messages" })).data.messages.map((m: Frame) => m.role);
}

/** The frames of these types, in order (default: run and auto-compaction lifecycle). */
function only(frames: Frame[], types = LIFECYCLE): string[] {
  return frames.filter((f) => types.includes(f.type)).map((f) => f.type);
}

function sessionEntries(file: string): Frame[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Frame);
}

describe("manual compact", () => {
  it("summarises older history with custom instructions and replaces the context; survives a reload", async () => {
    const home = homeWithSettings();
    const p = await start({ pithHome: home });
    await twoExchanges(p);
    const before = llm.requests.length;
    llm.enqueue({ text: SUMMARY, usage: SMALL });
    const from = p.frames.length;
    const res = await p.request({ type: "compact", customInstructions: "Focus on the import paths" });
    expect(res.success, res.error).toBe(true);

    // What the summariser received: one user message with the transcript, no tools.
    expect(llm.requests.length).toBe(before + 1);
    const req = llm.requests[before];
    const msgs = chat(req).filter((m) => m.role !== "system");
    expect(msgs).toHaveLength(1);
    expect(msgs[0].role).toBe("user");
    expect(msgs[0].text).toMatch(/^<conversation>\n/);
    expectInOrder(msgs[0].text, [`[User]: ${U1.trim()}`, `[Assistant]: ${A1}`, "</conversation>"]);
    expect(msgs[0].text).not.toContain("bravo"); // the kept turn is not summarised
    expect(msgs[0].text.trimEnd().endsWith("Additional focus: Focus on the import paths")).toBe(true);
    expect(req.body.tools ?? []).toEqual([]);
    expect(req.body.max_tokens).toBe(1600); // ⌊0.8 × reserveTokens⌋
    expect(req.body.reasoning_effort).toBe("high");
    expect(chat(req)[0].role).toMatch(/system|developer/);

    // The response is a CompactionResult; no auto_compaction_* events for a manual compact.
    expect(res.data.summary).toContain("SUMMARY-MARKER-7");
    expect(typeof res.data.firstKeptEntryId).toBe("string");
    expect(res.data.tokensBefore).toBeGreaterThan(0);
    expect(p.events("auto_compaction_start", from)).toHaveLength(0);
    expect(p.events("auto_compaction_end", from)).toHaveLength(0);

    // The context now starts with the summary, then the kept messages.
    const got = await p.request({ type: "get_messages" });
    expect(got.data.messages.map((m: Frame) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
    expect(got.data.messages[0].summary).toBe(res.data.summary);
    expect(got.data.messages[1].content).toEqual([{ type: "text", text: U2 }]);

    // The session file has the entry, pointing at the first kept message (u2).
    const file = (await p.request({ type: "get_state" })).data.sessionFile as string;
    const entries = sessionEntries(file);
    const compaction = entries.find((e) => e.type === "compaction")!;
    expect(compaction.summary).toBe(res.data.summary);
    const kept = entries.find((e) => e.id === compaction.firstKeptEntryId)!;
    expect(kept.message.role).toBe("user");
    expect(kept.message.content).toEqual([{ type: "text", text: U2 }]);
    expect(res.data.firstKeptEntryId).toBe(kept.id);

    // The next prompt's request: summary, then the kept messages, then the new prompt.
    const next = llm.requests.length;
    llm.enqueue({ text: "ok", usage: SMALL });
    await p.promptAndWait("Third task");
    const body = transcript(llm.requests[next]);
    expectInOrder(body, ["SUMMARY-MARKER-7", U2.trim(), A2, "Third task"]);
    expect(body).not.toContain("alpha");

    // Reload the file in a new process: the same context is sent.
    expect(await p.close()).toBe(0);
    const q = await start({ pithHome: home, args: ["--session", file] });
    expect(await roles(q)).toEqual(["compactionSummary", "user", "assistant", "user", "assistant"]);
    const reloaded = llm.requests.length;
    llm.enqueue({ text: "ok again", usage: SMALL });
    await q.promptAndWait("Fourth task");
    const body2 = transcript(llm.requests[reloaded]);
    expectInOrder(body2, ["SUMMARY-MARKER-7", U2.trim(), A2, "Third task", "ok", "Fourth task"]);
    expect(body2).not.toContain("alpha");
    await q.close();
  });

  it("answers Already compacted when the last entry is a compaction", async () => {
    const p = await start();
    await twoExchanges(p);
    llm.enqueue({ text: SUMMARY });
    expect((await p.request({ type: "compact" })).success).toBe(true);
    const before = llm.requests.length;
    const res = await p.request({ type: "compact" });
    expect(res.success).toBe(false);
    expect(res.command).toBe("compact");
    expect(res.error).toContain("Already compacted");
    expect(llm.requests.length).toBe(before);
  });

  it("answers Nothing to compact (session too small)", async () => {
    const p = await start();
    const empty = await p.request({ type: "compact" });
    expect(empty.success).toBe(false);
    expect(empty.error).toContain("Nothing to compact (session too small)");
    llm.enqueue({ text: "hi", usage: SMALL });
    await p.promptAndWait("hello");
    const before = llm.requests.length;
    const res = await p.request({ type: "compact" });
    expect(res.success).toBe(false);
    expect(res.error).toContain("Nothing to compact (session too small)");
    expect(llm.requests.length).toBe(before);
    expect(await roles(p)).toEqual(["user", "assistant"]);
  });

  it("abort cancels a running compaction and leaves the session exactly as before", async () => {
    const p = await start();
    await twoExchanges(p);
    const messagesBefore = (await p.request({ type: "get_messages" })).data.messages;
    const state0 = await p.request({ type: "get_state" });
    expect(state0.data.isCompacting).toBe(false);
    const file = state0.data.sessionFile as string;
    const linesBefore = readFileSync(file, "utf8");

    const before = llm.requests.length;
    llm.enqueue({ hang: true });
    const compactId = "compact-hang";
    const from = p.frames.length;
    p.send({ id: compactId, type: "compact" });
    await llm.waitForRequests(before + 1, 10_000);
    // get_state is answered while compact runs.
    const during = await p.request({ type: "get_state" });
    expect(during.data.isCompacting).toBe(true);

    const abort = await p.request({ type: "abort" });
    expect(abort.success).toBe(true);
    const res = await p.waitFor((f) => f.type === "response" && f.id === compactId, 10_000, from);
    expect(res.success).toBe(false);
    expect(res.error).toContain("Compaction cancelled");

    const after = await p.request({ type: "get_state" });
    expect(after.data.isCompacting).toBe(false);
    expect((await p.request({ type: "get_messages" })).data.messages).toEqual(messagesBefore);
    expect(readFileSync(file, "utf8")).toBe(linesBefore);
    expect(sessionEntries(file).some((e) => e.type === "compaction")).toBe(false);

    // The session still works, with the full history.
    const next = llm.requests.length;
    llm.enqueue({ text: "still here", usage: SMALL });
    await p.promptAndWait("Third task");
    expectInOrder(transcript(llm.requests[next]), [U1.trim(), A1, U2.trim(), A2, "Third task"]);
  });
});

describe("automatic compaction", () => {
  it("compacts after a run above the threshold, then continues with a developer message", async () => {
    const p = await start();
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    const before = llm.requests.length;
    llm.enqueue({ text: A2, usage: BIG }, { text: SUMMARY, usage: SMALL }, { text: "Nothing left to do.", usage: SMALL });
    const frames = await p.promptAndWait(U2);

    expect(only(frames)).toEqual(["agent_start", "agent_end", "auto_compaction_start", "auto_compaction_end", "agent_start", "agent_end"]);
    const start_ = frames.find((f) => f.type === "auto_compaction_start")!;
    expect(start_).toMatchObject({ reason: "threshold", action: "context-full" });
    const end = frames.find((f) => f.type === "auto_compaction_end")!;
    expect(end).toMatchObject({ action: "context-full", aborted: false, willRetry: false });
    expect(end.result.summary).toContain("SUMMARY-MARKER-7");
    expect(end.errorMessage).toBeUndefined();

    // The continuation run starts with the developer message.
    const second = frames.slice(frames.indexOf(end));
    const dev = second.find((f) => f.type === "message_start")!;
    expect(dev.message.role).toBe("developer");
    expect(JSON.stringify(dev.message.content)).toContain("Continue if you have next steps.");

    // Requests: the run, the summary (one user message), the continuation on the compacted context.
    expect(llm.requests.length).toBe(before + 3);
    expect(isSummaryRequest(llm.requests[before + 1])).toBe(true);
    const cont = transcript(llm.requests[before + 2]);
    expectInOrder(cont, ["SUMMARY-MARKER-7", U2.trim(), A2, "Continue if you have next steps."]);
    expect(cont).not.toContain("alpha");

    expect(await roles(p)).toEqual(["compactionSummary", "user", "assistant", "developer", "assistant"]);
  });

  it("set_auto_compaction false disables the threshold path", async () => {
    const p = await start();
    const off = await p.request({ type: "set_auto_compaction", enabled: false });
    expect(off.success).toBe(true);
    expect((await p.request({ type: "get_state" })).data.autoCompactionEnabled).toBe(false);
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    const before = llm.requests.length;
    llm.enqueue({ text: A2, usage: BIG });
    const frames = await p.promptAndWait(U2);
    expect(frames.filter((f) => f.type.startsWith("auto_compaction"))).toHaveLength(0);
    expect(llm.requests.length).toBe(before + 1);
    // The pre-flight of the next prompt does not compact either.
    llm.enqueue({ text: "fine", usage: SMALL });
    const next = await p.promptAndWait("Third task");
    expect(next.filter((f) => f.type.startsWith("auto_compaction"))).toHaveLength(0);
    expect(llm.requests.length).toBe(before + 2);
    expect((await roles(p))[0]).toBe("user");
  });

  it("compacts in a prompt's pre-flight when the previous reply left the context too large", async () => {
    const p = await start();
    await p.request({ type: "set_auto_compaction", enabled: false });
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    llm.enqueue({ text: A2, usage: BIG });
    await p.promptAndWait(U2);
    await p.request({ type: "set_auto_compaction", enabled: true });
    const before = llm.requests.length;
    llm.enqueue({ text: SUMMARY, usage: SMALL }, { text: "done", usage: SMALL });
    const frames = await p.promptAndWait("Third task");
    expect(only(frames)).toEqual(["auto_compaction_start", "auto_compaction_end", "agent_start", "agent_end"]);
    expect(frames.find((f) => f.type === "auto_compaction_start")).toMatchObject({ reason: "threshold", action: "context-full" });
    expect(frames.find((f) => f.type === "auto_compaction_end")).toMatchObject({ aborted: false, willRetry: false });
    expect(llm.requests.length).toBe(before + 2);
    expect(isSummaryRequest(llm.requests[before])).toBe(true);
    const body = transcript(llm.requests[before + 1]);
    expectInOrder(body, ["SUMMARY-MARKER-7", U2.trim(), A2, "Third task"]);
    expect(body).not.toContain("Continue if you have next steps.");
    expect(await roles(p)).toEqual(["compactionSummary", "user", "assistant", "user", "assistant"]);
  });

  it("does not compact again on the usage of a reply kept from before the compaction", async () => {
    const home = homeWithSettings({ ...SETTINGS, compaction: { ...SETTINGS.compaction, autoContinue: false } });
    const p = await start({ pithHome: home });
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    llm.enqueue({ text: A2, usage: BIG }, { text: SUMMARY, usage: SMALL });
    const first = await p.promptAndWait(U2);
    expect(first.filter((f) => f.type === "auto_compaction_end")).toHaveLength(1);
    expect(first.filter((f) => f.type === "agent_start")).toHaveLength(1); // autoContinue off
    // The kept reply (a2) still carries the big usage, but it was measured before the compaction.
    const before = llm.requests.length;
    llm.enqueue({ text: "next", usage: SMALL });
    const frames = await p.promptAndWait("Third task");
    expect(frames.filter((f) => f.type.startsWith("auto_compaction"))).toEqual([]);
    expect(llm.requests.length).toBe(before + 1);
  });

  it("ignores an overflow error that came from another model", async () => {
    const p = await start();
    await p.request({ type: "set_auto_compaction", enabled: false });
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    llm.enqueue({ error: { status: 400, body: { error: { message: "prompt is too long: 12000 tokens > 10000 maximum" } } } });
    const failed = await p.promptAndWait(U2);
    expect(failed.find((f) => f.type === "message_end" && f.message.role === "assistant")!.message.stopReason).toBe("error");
    await p.request({ type: "set_auto_compaction", enabled: true });
    const switched = await p.request({ type: "set_model", provider: "fake-anthropic", modelId: "fake-claude" });
    expect(switched.success, switched.error).toBe(true);
    const before = llm.requests.length;
    llm.enqueue({ text: "fine on the other model", usage: SMALL });
    const frames = await p.promptAndWait("Third task");
    expect(frames.filter((f) => f.type.startsWith("auto_compaction"))).toEqual([]);
    expect(llm.requests.length).toBe(before + 1);
    expect(llm.requests[before].path).toMatch(/\/messages$/);
  });
});

const OVERFLOWS: Array<[string, [string, string], object]> = [
  [
    "openai-completions",
    ["fake-openai", "fake-gpt"],
    { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.", type: "invalid_request_error", code: "context_length_exceeded" } },
  ],
  [
    "anthropic-messages",
    ["fake-anthropic", "fake-claude"],
    { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 12000 tokens > 10000 maximum" } },
  ],
];

describe.each(OVERFLOWS)("overflow recovery over %s", (_api, model, errorBody) => {
  const overflow = { error: { status: 400, body: errorBody } };

  it("compacts and retries the failed request with the summary", async () => {
    const p = await start({ model });
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    const before = llm.requests.length;
    llm.enqueue(overflow, { text: SUMMARY, usage: SMALL }, { text: A2, usage: SMALL });
    const frames = await p.promptAndWait(U2);

    expect(only(frames)).toEqual(["agent_start", "agent_end", "auto_compaction_start", "auto_compaction_end", "agent_start", "agent_end"]);
    const failed = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(failed.message.stopReason).toBe("error");
    expect(frames.find((f) => f.type === "auto_compaction_start")).toMatchObject({ reason: "overflow", action: "context-full" });
    const end = frames.find((f) => f.type === "auto_compaction_end")!;
    expect(end).toMatchObject({ aborted: false, willRetry: true });
    expect(end.result.summary).toContain("SUMMARY-MARKER-7");

    // overflow request, summary request, retried request with the summary and the kept prompt.
    expect(llm.requests.length).toBe(before + 3);
    expect(isSummaryRequest(llm.requests[before + 1])).toBe(true);
    const retried = transcript(llm.requests[before + 2]);
    expectInOrder(retried, ["SUMMARY-MARKER-7", U2.trim()]);
    expect(retried).not.toContain("alpha");
    expect(retried).not.toMatch(/maximum context length|prompt is too long/);

    const last = frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").at(-1)!;
    expect(last.message.stopReason).toBe("stop");
    expect(last.message.content).toEqual([{ type: "text", text: A2 }]);
    expect(await roles(p)).toEqual(["compactionSummary", "user", "assistant"]);
  });

  it("reports a failed summary as Context overflow recovery failed and does not retry", async () => {
    const p = await start({ model });
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    const before = llm.requests.length;
    llm.enqueue(overflow, { error: { status: 400, body: { error: { message: "summariser refused" } } } });
    const frames = await p.promptAndWait(U2);
    const end = frames.find((f) => f.type === "auto_compaction_end")!;
    expect(end).toMatchObject({ aborted: false, willRetry: false });
    expect(end.result).toBeUndefined();
    expect(end.errorMessage).toMatch(/^Context overflow recovery failed: /);
    expect(end.errorMessage).toContain("summariser refused");
    expect(frames.filter((f) => f.type === "agent_start")).toHaveLength(1);
    expect(llm.requests.length).toBe(before + 2);
    const file = (await p.request({ type: "get_state" })).data.sessionFile as string;
    expect(sessionEntries(file).some((e) => e.type === "compaction")).toBe(false);
  });

  it("does not loop when the retried request overflows again", async () => {
    const p = await start({ model });
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    const before = llm.requests.length;
    llm.enqueue(overflow, { text: SUMMARY, usage: SMALL }, overflow);
    const frames = await p.promptAndWait(U2);
    // One compact-and-retry per prompt: the second overflow is reported, not compacted again.
    expect(llm.requests.slice(before).filter(isSummaryRequest)).toHaveLength(1);
    expect(llm.requests.length).toBe(before + 3);
    expect(only(frames)).toEqual(["agent_start", "agent_end", "auto_compaction_start", "auto_compaction_end", "agent_start", "agent_end", "auto_compaction_start", "auto_compaction_end"]);
    const ends = frames.filter((f) => f.type === "auto_compaction_end");
    expect(ends[0]).toMatchObject({ willRetry: true });
    expect(ends[1]).toMatchObject({ aborted: false, willRetry: false });
    expect(ends[1].result).toBeUndefined();
    expect(ends[1].errorMessage).toMatch(/^Context overflow recovery failed: .*one compact-and-retry attempt/);
    const last = frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").at(-1)!;
    expect(last.message.stopReason).toBe("error");
    expect(llm.pending()).toBe(0);
  });
});

describe("aborting automatic compaction and compacting during a run", () => {
  it("abort during a threshold compaction ends it with aborted:true and starts no continuation", async () => {
    const p = await start();
    llm.enqueue({ text: A1, usage: SMALL });
    await p.promptAndWait(U1);
    const before = llm.requests.length;
    llm.enqueue({ text: A2, usage: BIG }, { hang: true });
    const from = p.frames.length;
    const ack = await p.request({ type: "prompt", message: U2 });
    expect(ack.success).toBe(true);
    await p.waitFor((f) => f.type === "auto_compaction_start", 10_000, from);
    await llm.waitForRequests(before + 2, 10_000);
    expect((await p.request({ type: "get_state" })).data.isCompacting).toBe(true);
    expect((await p.request({ type: "abort" })).success).toBe(true);
    const end = await p.waitFor((f) => f.type === "auto_compaction_end", 10_000, from);
    expect(end).toMatchObject({ action: "context-full", aborted: true, willRetry: false });
    expect(end.result).toBeUndefined();
    const state = await p.request({ type: "get_state" });
    expect(state.data).toMatchObject({ isCompacting: false, isStreaming: false });
    expect(p.events("agent_start", from)).toHaveLength(1);
    expect(sessionEntries(state.data.sessionFile).some((e) => e.type === "compaction")).toBe(false);
    expect(await roles(p)).toEqual(["user", "assistant", "user", "assistant"]);
  });

  it("manual compact during a streaming run aborts the run, then compacts", async () => {
    const p = await start();
    await twoExchanges(p);
    const before = llm.requests.length;
    llm.enqueue({ hang: true }, { text: SUMMARY, usage: SMALL });
    const ack = await p.request({ type: "prompt", message: "Third task" });
    expect(ack.success).toBe(true);
    await llm.waitForRequests(before + 1, 10_000);
    const res = await p.request({ type: "compact" });
    expect(res.success, res.error).toBe(true);
    expect(res.data.summary).toContain("SUMMARY-MARKER-7");
    expect(llm.requests.length).toBe(before + 2);
    expect(isSummaryRequest(llm.requests[before + 1])).toBe(true);
    const state = await p.request({ type: "get_state" });
    expect(state.data).toMatchObject({ isCompacting: false, isStreaming: false });
    expect((await roles(p))[0]).toBe("compactionSummary");
  });
});
