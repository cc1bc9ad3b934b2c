// Auto-retry of transient provider failures, end to end
// against the scripted SSE server. Delays come from PITH_HOME/settings.json to keep tests short.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeReply } from "../support/fake-llm-server.js";
import { Pith, trackPiths, useFakeLlm, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(baseDelayMs: number, provider = "fake-openai", model = "fake-gpt"): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify({ retry: { baseDelayMs } }));
  const p = await Pith.start({ pithHome, modelsJson: fakeModelsJson(llm.url), args: ["--provider", provider, "--model", model] });
  open.push(p);
  const on = await p.request({ type: "set_auto_retry", enabled: true });
  expect(on.success).toBe(true);
  return p;
}

const http = (status: number, message: string): FakeReply => ({
  error: { status, body: { type: "error", error: { type: status === 529 ? "overloaded_error" : "api_error", message } } },
});
const chatRequests = (from: number) => llm.requests.slice(from).filter((r) => r.method === "POST");
const types = (frames: Frame[]) =>
  frames
    .filter((f) => f.type !== "response" && f.type !== "message_update")
    .map((f) => (f.type === "message_start" || f.type === "message_end" ? `${f.type}:${f.message.role}` : f.type));

describe("auto-retry", () => {
  it("a 500 then success: auto_retry_start / auto_retry_end {success:true}, one final reply, same context re-sent", async () => {
    const p = await start(50);
    const before = llm.requests.length;
    llm.enqueue(http(500, "internal server error"), { text: "recovered reply" });
    const frames = await p.promptAndWait("please");
    const starts = p.events("auto_retry_start", 0).filter((f) => frames.includes(f));
    expect(starts).toHaveLength(1);
    expect(starts[0]).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 50 });
    expect(starts[0].errorMessage).toMatch(/500/);
    const ends = frames.filter((f) => f.type === "auto_retry_end");
    expect(ends).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);
    const seq = types(frames);
    // The failed run ends, the retry announces itself, then a new run without a user message.
    expect(seq.slice(0, seq.indexOf("auto_retry_start") + 2)).toEqual([
      "agent_start",
      "turn_start",
      "message_start:user",
      "message_end:user",
      "message_start:assistant",
      "message_end:assistant",
      "turn_end",
      "agent_end",
      "auto_retry_start",
      "agent_start",
    ]);
    expect(seq.filter((t) => t === "message_start:user")).toHaveLength(1);
    const finals = frames.filter((f) => f.type === "message_end" && f.message.role === "assistant" && f.message.stopReason === "stop");
    expect(finals).toHaveLength(1);
    expect(finals[0].message.content[0].text).toBe("recovered reply");
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(2);
    // The failed assistant message was dropped from the context: the retry re-sends the same messages.
    expect(reqs[1].body.messages).toEqual(reqs[0].body.messages);
    const msgs = (await p.request({ type: "get_messages" })).data.messages;
    expect(msgs.map((m: Frame) => `${m.role}:${m.stopReason ?? ""}`)).toEqual(["user:", "assistant:stop"]);
  });

  it("529s until retries run out: auto_retry_end {success:false, attempt:3}", async () => {
    const p = await start(20);
    const before = llm.requests.length;
    llm.enqueue(http(529, "Overloaded"), http(529, "Overloaded"), http(529, "Overloaded"), http(529, "Overloaded"));
    const frames = await p.promptAndWait("overloaded please");
    const starts = frames.filter((f) => f.type === "auto_retry_start");
    expect(starts.map((f) => [f.attempt, f.delayMs])).toEqual([
      [1, 20],
      [2, 40],
      [3, 80],
    ]);
    const ends = frames.filter((f) => f.type === "auto_retry_end");
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ success: false, attempt: 3 });
    expect(ends[0].finalError).toMatch(/529|overloaded/i);
    // The end comes after the last run's agent_end; no further run starts.
    expect(frames.indexOf(ends[0])).toBeGreaterThan(frames.lastIndexOf(frames.filter((f) => f.type === "agent_end").at(-1)!));
    expect(frames.filter((f) => f.type === "agent_start")).toHaveLength(4);
    expect(chatRequests(before)).toHaveLength(4);
    expect(llm.pending()).toBe(0);
    // The process stays usable and the next prompt starts a fresh sequence.
    llm.enqueue({ text: "fine now" });
    const again = await p.promptAndWait("again");
    expect(again.filter((f) => f.type.startsWith("auto_retry"))).toHaveLength(0);
  });

  it("abort_retry during the backoff: auto_retry_end {finalError:'Retry cancelled'}, no new request", async () => {
    const p = await start(30_000);
    const before = llm.requests.length;
    llm.enqueue(http(503, "service unavailable"));
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "will be cancelled" });
    await p.waitFor((f) => f.type === "auto_retry_start", 10_000, from);
    expect((await p.request({ type: "get_state" })).data.isStreaming).toBe(true);
    const res = await p.request({ id: "ar", type: "abort_retry" });
    expect(res).toEqual({ type: "response", id: "ar", command: "abort_retry", success: true });
    const end = await p.waitFor((f) => f.type === "auto_retry_end", 5000, from);
    expect(end).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" });
    await p.waitIdle(5000, from);
    expect(chatRequests(before)).toHaveLength(1);
    expect(p.events("agent_start", from)).toHaveLength(1);
    // abort_retry with nothing pending is a no-op success.
    expect((await p.request({ type: "abort_retry" })).success).toBe(true);
  });

  it("abort during the backoff also cancels the retry", async () => {
    const p = await start(30_000);
    const before = llm.requests.length;
    llm.enqueue(http(502, "bad gateway"));
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "abort me" });
    await p.waitFor((f) => f.type === "auto_retry_start", 10_000, from);
    expect((await p.request({ type: "abort" })).success).toBe(true);
    expect(p.events("auto_retry_end", from)).toEqual([{ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" }]);
    expect((await p.request({ type: "get_state" })).data.isStreaming).toBe(false);
    expect(chatRequests(before)).toHaveLength(1);
  });

  it("during the backoff the agent stays busy: prompt is rejected, steer is delivered with the retried request", async () => {
    const p = await start(400);
    const before = llm.requests.length;
    llm.enqueue(http(429, "rate limit exceeded"), { text: "after backoff" }, { text: "after follow-up" });
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "busy backoff" });
    await p.waitFor((f) => f.type === "auto_retry_start", 10_000, from);
    const busy = await p.request({ type: "prompt", message: "REJECTED" });
    expect(busy.success).toBe(false);
    expect(busy.error).toMatch(/^Agent is already processing/);
    await p.request({ type: "steer", message: "STEER-IN-BACKOFF" });
    await p.request({ type: "prompt", message: "FOLLOW-IN-BACKOFF", streamingBehavior: "followUp" });
    await p.waitIdle(15_000, from);
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(3);
    const retried = JSON.stringify(reqs[1].body);
    expect(retried).toContain("STEER-IN-BACKOFF");
    expect(retried).not.toContain("FOLLOW-IN-BACKOFF");
    expect(JSON.stringify(reqs[2].body)).toContain("FOLLOW-IN-BACKOFF");
    expect(JSON.stringify(reqs.map((r) => r.body))).not.toContain("REJECTED");
    expect(p.events("auto_retry_end", from)).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);
  });

  it("abort during the backoff keeps queued messages for the next prompt", async () => {
    const p = await start(30_000);
    const before = llm.requests.length;
    llm.enqueue(http(500, "internal server error"));
    const from = p.frames.length;
    await p.request({ type: "prompt", message: "first" });
    await p.waitFor((f) => f.type === "auto_retry_start", 10_000, from);
    await p.request({ type: "follow_up", message: "SURVIVES" });
    await p.request({ type: "abort" });
    expect((await p.request({ type: "get_state" })).data).toMatchObject({ isStreaming: false, queuedMessageCount: 1 });
    llm.enqueue({ text: "one" }, { text: "two" });
    await p.promptAndWait("second");
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(3);
    expect(JSON.stringify(reqs[2].body)).toContain("SURVIVES");
  });

  it("with auto-retry disabled the error stands", async () => {
    const p = await start(20);
    await p.request({ type: "set_auto_retry", enabled: false });
    expect((await p.request({ type: "get_state" })).data.autoRetryEnabled).toBe(false);
    const before = llm.requests.length;
    llm.enqueue(http(500, "internal server error"));
    const frames = await p.promptAndWait("no retry");
    expect(frames.filter((f) => f.type.startsWith("auto_retry"))).toHaveLength(0);
    expect(chatRequests(before)).toHaveLength(1);
  });

  it.each([
    ["fake-openai", "fake-gpt"],
    ["fake-anthropic", "fake-claude"],
  ])("a stream cut mid-reply is retried (%s)", async (provider, model) => {
    const p = await start(50, provider, model);
    const before = llm.requests.length;
    llm.enqueue({ text: ["partial ", "text ", "that ", "never ", "ends"], cutAfterChunks: 3 }, { text: "complete reply" });
    const frames = await p.promptAndWait("cut me");
    const failed = frames.find((f) => f.type === "message_end" && f.message.role === "assistant" && f.message.stopReason === "error");
    expect(failed).toBeDefined();
    expect(frames.filter((f) => f.type === "auto_retry_start")).toHaveLength(1);
    expect(frames.filter((f) => f.type === "auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: 1 }]);
    const reqs = chatRequests(before);
    expect(reqs).toHaveLength(2);
    // The partial reply is not sent back to the model.
    expect(JSON.stringify(reqs[1].body)).not.toContain("partial");
    const last = frames.filter((f) => f.type === "agent_end").at(-1)!;
    expect(last.messages.map((m: Frame) => m.role)).toEqual(["assistant"]);
    expect(last.messages[0].content[0].text).toBe("complete reply");
  });

  it("auto_retry_end {success:true} comes right after the message_end of the retried reply", async () => {
    const p = await start(20);
    llm.enqueue(http(503, "service unavailable"), { text: "second try" });
    const frames = await p.promptAndWait("order please");
    const seq = types(frames);
    const end = seq.indexOf("auto_retry_end");
    expect(end).toBeGreaterThan(0);
    expect(seq[end - 1]).toBe("message_end:assistant");
    const before = frames[frames.findIndex((f) => f.type === "auto_retry_end") - 1];
    expect(before.message.content[0].text).toBe("second try");
  });

  it("a 429 whose retry-after is longer than retry.maxDelayMs: no retry events at all, and the error says why", async () => {
    const p = await start(20);
    const before = llm.requests.length;
    llm.enqueue({ error: { status: 429, body: { type: "error", error: { type: "rate_limit_error", message: "slow down" } }, headers: { "retry-after": "3600" } } });
    const frames = await p.promptAndWait("too long a wait");
    expect(frames.filter((f) => f.type.startsWith("auto_retry"))).toEqual([]);
    const failed = frames.find((f) => f.type === "message_end" && f.message.role === "assistant")!;
    expect(failed.message.stopReason).toBe("error");
    expect(failed.message.errorMessage).toMatch(/not retried: the server asked to wait 3600 s, longer than retry\.maxDelayMs = 60 s/);
    expect(chatRequests(before)).toHaveLength(1);
    const stored = (await p.request({ type: "get_last_assistant_text" })).data;
    expect(stored).toEqual({});
  });

  it("a retry-after that is too long on a later attempt ends the announced sequence once", async () => {
    const p = await start(20);
    llm.enqueue(http(500, "internal server error"), { error: { status: 429, body: "rate limited", headers: { "retry-after": "3600" } } });
    const frames = await p.promptAndWait("later");
    const retry = frames.filter((f) => f.type.startsWith("auto_retry"));
    expect(retry.map((f) => f.type)).toEqual(["auto_retry_start", "auto_retry_end"]);
    expect(retry[1]).toMatchObject({ success: false, attempt: 1, finalError: expect.stringContaining("not retried") });
  });
});
