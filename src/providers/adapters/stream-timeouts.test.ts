// A provider that stops sending: the first-byte and idle limits end the
// attempt with a retryable error instead of waiting forever.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm } from "../../../test/support/fake-llm-server.js";
import { collect, fakeModel } from "../../../test/support/fake-llm-models.js";
import { isRetryableError } from "../../session/retry-policy.js";
import type { AssistantMessageEvent } from "../../shared/types.js";
import { firstByteTimeoutMessage, idleTimeoutMessage } from "../stream-watchdog.js";
import type { LlmContext } from "../types.js";
import { streamAnthropic } from "./anthropic.js";
import { streamOpenAICompletions } from "./openai-completions.js";

// A fake per test: a request aborted before the fake has read it leaves its scripted reply
// queued, and a shared fake would hand that reply to the next test.
let fake: FakeLlm;
beforeEach(async () => void (fake = await startFakeLlmServer()));
afterEach(async () => fake.close());

const ctx: LlmContext = { systemPrompt: "sys", messages: [{ role: "user", content: "hi", timestamp: 1 }], tools: [] };
const ADAPTERS = [
  ["openai-completions", streamOpenAICompletions],
  ["anthropic-messages", streamAnthropic],
] as const;

describe.each(ADAPTERS)("stream timeouts (%s)", (api, stream) => {
  const model = () => fakeModel(api, fake.url);

  it("ends a reply whose first byte never comes, retryably, once the first-byte limit runs out", async () => {
    fake.enqueue({ text: "late", delayMs: 60_000 });
    const started = Date.now();
    const { final } = await collect(stream(model(), ctx, { apiKey: "k", firstByteTimeoutMs: 200, idleTimeoutMs: 10_000 }));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(final).toMatchObject({ stopReason: "error", errorMessage: firstByteTimeoutMessage(200) });
    expect(isRetryableError(final)).toBe(true);
  });

  it("ends a reply that goes silent mid-stream once the idle limit runs out, keeping what came", async () => {
    fake.enqueue({ text: ["partial ", "reply"], hang: true });
    const { events, final } = await collect(stream(model(), ctx, { apiKey: "k", firstByteTimeoutMs: 10_000, idleTimeoutMs: 200 }));
    expect(events.filter((e) => e.type === "text_delta").length).toBeGreaterThan(0);
    expect(final).toMatchObject({ stopReason: "error", errorMessage: idleTimeoutMessage(200) });
    expect(final.content).toEqual([{ type: "text", text: "partial reply" }]);
    expect(isRetryableError(final)).toBe(true);
  });

  it("lets a slow but steady reply and a slow consumer finish", async () => {
    fake.enqueue({ text: ["a", "b", "c", "d"], chunkDelayMs: 100, delayMs: 100 });
    const slow = await collect(stream(model(), ctx, { apiKey: "k", firstByteTimeoutMs: 400, idleTimeoutMs: 400 }));
    expect(slow.final).toMatchObject({ stopReason: "stop", content: [{ type: "text", text: "abcd" }] });
    fake.enqueue({ text: ["a", "b"] });
    const events: AssistantMessageEvent[] = [];
    for await (const e of stream(model(), ctx, { apiKey: "k", firstByteTimeoutMs: 150, idleTimeoutMs: 150 })) {
      events.push(e);
      await new Promise((r) => setTimeout(r, 200)); // the host is slow to take events
    }
    expect(events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "ab" }] } });
  });

  it("does not take a stall of this process for a silent peer: data waiting on the socket counts", async () => {
    // The fake (in this process) writes each chunk 30 ms after the last; this process then
    // blocks for longer than the idle limit while the next chunk is on its way, so both the
    // fake's timer and the idle limit are due together when it wakes up.
    fake.enqueue({ text: ["a", "b", "c"], chunkDelayMs: 30 });
    const events: AssistantMessageEvent[] = [];
    let stalled = false;
    for await (const e of stream(model(), ctx, { apiKey: "k", firstByteTimeoutMs: 10_000, idleTimeoutMs: 150 })) {
      events.push(e);
      if (e.type === "text_delta" && !stalled) {
        stalled = true;
        setTimeout(() => busyWait(400), 0); // runs once the stream is waiting for its next chunk
      }
    }
    expect(stalled).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: "done", message: { content: [{ type: "text", text: "abc" }] } });
  });

  it("still reports the caller's abort as an abort, not a timeout", async () => {
    fake.enqueue({ text: ["x"], hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { final } = await collect(stream(model(), ctx, { apiKey: "k", signal: controller.signal, firstByteTimeoutMs: 5_000, idleTimeoutMs: 5_000 }));
    expect(final).toMatchObject({ stopReason: "aborted" });
  });
});

function busyWait(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}
