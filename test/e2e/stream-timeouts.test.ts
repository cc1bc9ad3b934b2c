// A provider that stops sending bytes no longer wedges a run: the first-byte
// and idle limits (retry.firstByteTimeoutMs / retry.idleTimeoutMs, set small here through the
// settings file) end the attempt, auto-retry re-sends it, and with retries off the run ends
// with a clean error. The same holds for compaction's summary request.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeReply, type FakeRequest } from "../support/fake-llm-server.js";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

// Each test turns on only the limit it checks (0 = no limit): on a busy machine the fake's
// answer to a request can take longer than a short first-byte limit, and that must not end an
// attempt that is meant to stall mid-stream. The first-byte limit also bounds the retry's
// answer, so it is the longer one.
const FIRST_BYTE_MS = 1_000;
const IDLE_MS = 400;
const FIRST_BYTE_ONLY = { firstByteTimeoutMs: FIRST_BYTE_MS, idleTimeoutMs: 0 };
const IDLE_ONLY = { firstByteTimeoutMs: 0, idleTimeoutMs: IDLE_MS };
const FIRST_BYTE = `Provider stream timed out: no data within ${FIRST_BYTE_MS} ms of sending the request (retry.firstByteTimeoutMs)`;
const IDLE = `Provider stream timed out: no data for ${IDLE_MS} ms in the middle of the reply (retry.idleTimeoutMs)`;

async function start(retry: Record<string, unknown>, provider = "fake-openai", model = "fake-gpt"): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  // A small keep budget so that two short exchanges leave something to compact.
  const compaction = { keepRecentTokens: 50, reserveTokens: 2000 };
  const settings = { compaction, retry: { baseDelayMs: 10, ...retry } };
  writeFileSync(path.join(pithHome, "settings.json"), JSON.stringify(settings));
  const p = await Pith.start({ pithHome, modelsJson: fakeModelsJson(llm.url), args: ["--provider", provider, "--model", model] });
  open.push(p);
  return p;
}

/** Never sends a byte (not even the status line) within the test. */
const SILENT: FakeReply = { text: "never", delayMs: 120_000 };
/** Sends part of a reply, then nothing more. */
const STALLED: FakeReply = { text: ["partial ", "answer"], hang: true };

const assistantEnds = (frames: Frame[]) => frames.filter((f) => f.type === "message_end" && f.message.role === "assistant").map((f) => f.message);

describe.each([
  ["fake-openai", "fake-gpt"],
  ["fake-anthropic", "fake-claude"],
])("stream timeouts through %s", (provider, model) => {
  for (const [name, hung, message, limits] of [
    ["before the first byte", SILENT, FIRST_BYTE, FIRST_BYTE_ONLY],
    ["mid-stream", STALLED, IDLE, IDLE_ONLY],
  ] as const) {
    it(`a provider that hangs ${name}: the attempt times out, is retried, and the retry's reply arrives`, async () => {
      const p = await start({ enabled: true, maxRetries: 2, ...limits }, provider, model);
      const before = llm.requests.length;
      const prompt = `hello (${provider}, hangs ${name})`;
      // The retry's answer is held to the same first-byte limit, and on a busy machine the fake
      // may answer it too late: pith then rightly retries again. Spare answers serve only this
      // test's requests, so a leftover cannot reach a later test.
      const mine = (r: FakeRequest) => JSON.stringify(r.body).includes(prompt);
      llm.enqueue(hung, ...[1, 2].map(() => ({ text: "second try worked", match: mine })));
      const started = Date.now();
      const frames = await p.promptAndWait(prompt, {}, 20_000);
      expect(Date.now() - started).toBeLessThan(3 * FIRST_BYTE_MS + 10_000);
      const starts = frames.filter((f) => f.type === "auto_retry_start");
      const retries = starts.length;
      expect(retries).toBeGreaterThanOrEqual(1);
      // Only a late answer under the first-byte limit may cost a second retry; a stall never does.
      expect(retries === 1 || message === FIRST_BYTE, `${retries} retries for a hang ${name}`).toBe(true);
      expect(starts[0]).toMatchObject({ attempt: 1, errorMessage: message });
      for (const [i, s] of starts.entries()) expect(s).toMatchObject({ attempt: i + 1, errorMessage: message });
      expect(frames.filter((f) => f.type === "auto_retry_end")).toEqual([{ type: "auto_retry_end", success: true, attempt: retries }]);
      const replies = assistantEnds(frames);
      expect(replies.map((m) => m.stopReason)).toEqual([...starts.map(() => "error"), "stop"]);
      expect(replies[0].errorMessage).toBe(message);
      expect(replies[retries].content).toEqual([{ type: "text", text: "second try worked" }]);
      // The fake saw the hung request and then the same request again.
      const posts = llm.requests.slice(before).filter((r) => r.method === "POST");
      expect(posts).toHaveLength(retries + 1);
      for (const post of posts.slice(1)) expect(post.body.messages).toEqual(posts[0].body.messages);
      expect(await p.close()).toBe(0);
    });

    it(`a provider that hangs ${name} with retries off: agent_end carries the timeout error`, async () => {
      const p = await start({ enabled: false, ...limits }, provider, model);
      llm.enqueue(hung);
      const started = Date.now();
      const frames = await p.promptAndWait("hello", {}, 20_000);
      expect(Date.now() - started).toBeLessThan(FIRST_BYTE_MS + 10_000);
      expect(frames.some((f) => f.type.startsWith("auto_retry"))).toBe(false);
      const end = frames.find((f) => f.type === "agent_end") as Frame;
      const last = end.messages.at(-1);
      expect(last).toMatchObject({ role: "assistant", stopReason: "error", errorMessage: message });
      expect((await p.request({ type: "get_state" })).data.isStreaming).toBe(false);
      expect(await p.close()).toBe(0);
    });
  }
});

describe("stream timeouts of the compaction summary", () => {
  async function withHistory(retry: Record<string, unknown>): Promise<Pith> {
    const p = await start(retry);
    llm.enqueue({ text: "first answer" });
    await p.promptAndWait(`First task. ${"alpha ".repeat(40)}`);
    llm.enqueue({ text: "second answer" });
    await p.promptAndWait(`Second task. ${"bravo ".repeat(40)}`);
    return p;
  }

  it("a summary request that stalls is re-sent and the compaction succeeds", async () => {
    const p = await withHistory({ enabled: true, maxRetries: 2, ...IDLE_ONLY });
    const before = llm.requests.length;
    llm.enqueue(STALLED, { text: "## Goal\nSummary after a stall." });
    const res = await p.request({ type: "compact" }, 20_000);
    expect(res.success).toBe(true);
    expect(res.data.summary).toContain("Summary after a stall.");
    expect(llm.requests.slice(before).filter((r) => r.method === "POST")).toHaveLength(2);
    expect(await p.close()).toBe(0);
  });

  it("with retries off, a summary request that never answers fails the compaction cleanly", async () => {
    const p = await withHistory({ enabled: false, ...FIRST_BYTE_ONLY });
    llm.enqueue(SILENT);
    const started = Date.now();
    const res = await p.request({ type: "compact" }, 20_000);
    expect(Date.now() - started).toBeLessThan(FIRST_BYTE_MS + 10_000);
    expect(res).toMatchObject({ success: false, error: `Summarization failed: ${FIRST_BYTE}` });
    expect((await p.request({ type: "get_state" })).data.isCompacting).toBe(false);
    expect(await p.close()).toBe(0);
  });
});
