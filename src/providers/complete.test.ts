import { describe, expect, it } from "vitest";
import { emptyAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type Model } from "../shared/types.js";
import { TEST_MODEL } from "../../test/support/agent.js";
import { complete } from "./complete.js";
import type { LlmContext, StreamFn, StreamOptions } from "./types.js";

const model: Model = TEST_MODEL;

const text = (t: string): AssistantMessage => ({
  ...emptyAssistantMessage(model, 0, "stop"),
  content: [{ type: "text", text: t.slice(0, 3) }, { type: "text", text: t.slice(3) }],
  usage: { ...emptyAssistantMessage(model, 0, "stop").usage, input: 7, output: 3 },
});
const failed = (msg: string): AssistantMessage => ({ ...emptyAssistantMessage(model, 0, "error"), errorMessage: msg });

type Step = AssistantMessage | "throw" | "empty" | "hang";

/** Answers request n with steps[n]; records what each request carried. */
function scripted(steps: Step[]) {
  const calls: Array<{ context: LlmContext; options: StreamOptions }> = [];
  const stream: StreamFn = (_m, context, options) => {
    calls.push({ context, options });
    const step = steps[calls.length - 1];
    return (async function* (): AsyncGenerator<AssistantMessageEvent> {
      if (step === "throw") throw new Error("socket hang up");
      if (step === "empty") return;
      if (step === "hang") {
        if (!options.signal?.aborted) await new Promise<void>((resolve) => options.signal?.addEventListener("abort", () => resolve(), { once: true }));
        const aborted = emptyAssistantMessage(model, 0, "aborted");
        yield { type: "error", reason: "aborted", error: aborted };
        return;
      }
      yield { type: "start", partial: { ...step, content: [] } };
      if (step.stopReason === "error") yield { type: "error", reason: "error", error: step };
      else yield { type: "done", reason: "stop", message: step };
    })();
  };
  return { stream, calls };
}

const context = { systemPrompt: "sys", messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };

describe("complete", () => {
  it("returns the reply's text and usage; no tools, the timeouts and options reach the provider", async () => {
    const { stream, calls } = scripted([text("hello world")]);
    const out = await complete({
      stream,
      model,
      context: { ...context, tools: [{ name: "x", description: "", parameters: {} }] } as typeof context,
      signal: new AbortController().signal,
      options: { apiKey: "k", maxTokens: 9 },
      timeouts: { firstByteTimeoutMs: 11, idleTimeoutMs: 22 },
    });
    expect(out).toMatchObject({ status: "done", text: "hello world", usage: { input: 7, output: 3 } });
    expect(calls).toHaveLength(1);
    expect(calls[0].context.tools).toEqual([]);
    expect(calls[0].options).toMatchObject({ apiKey: "k", maxTokens: 9, firstByteTimeoutMs: 11, idleTimeoutMs: 22 });
    expect(calls[0].options.signal).toBeInstanceOf(AbortSignal);
  });

  it("reports a provider error, a throwing stream and a stream with no terminal event as errors", async () => {
    const signal = new AbortController().signal;
    expect(await complete({ stream: scripted([failed("503 overloaded")]).stream, model, context, signal })).toMatchObject({ status: "error", error: "503 overloaded" });
    expect(await complete({ stream: scripted(["throw"]).stream, model, context, signal })).toEqual({ status: "error", error: "socket hang up" });
    expect(await complete({ stream: scripted(["empty"]).stream, model, context, signal })).toEqual({ status: "error", error: "the stream ended without a reply" });
  });

  it("re-sends a failed reply while retryDelay gives a delay, and stops when it gives none", async () => {
    const { stream, calls } = scripted([failed("503"), failed("503"), text("ok")]);
    const seen: number[] = [];
    const out = await complete({ stream, model, context, signal: new AbortController().signal, retryDelay: (_r, attempt) => (seen.push(attempt), 1) });
    expect(out).toMatchObject({ status: "done", text: "ok" });
    expect(calls).toHaveLength(3);
    expect(seen).toEqual([1, 2]);

    const once = scripted([failed("401"), text("never")]);
    const refused = await complete({ stream: once.stream, model, context, signal: new AbortController().signal, retryDelay: () => undefined });
    expect(refused).toMatchObject({ status: "error", error: "401" });
    expect(once.calls).toHaveLength(1);
  });

  it("without retryDelay sends once", async () => {
    const { stream, calls } = scripted([failed("503"), text("ok")]);
    expect(await complete({ stream, model, context, signal: new AbortController().signal })).toMatchObject({ status: "error" });
    expect(calls).toHaveLength(1);
  });

  it("ends as aborted when the signal fires mid-stream or during the back-off, and sends nothing when already aborted", async () => {
    const mid = new AbortController();
    const hanging = complete({ stream: scripted(["hang"]).stream, model, context, signal: mid.signal });
    mid.abort();
    expect(await hanging).toEqual({ status: "aborted" });

    const backoff = new AbortController();
    const { stream, calls } = scripted([failed("503"), text("never")]);
    const waiting = complete({ stream, model, context, signal: backoff.signal, retryDelay: () => (queueMicrotask(() => backoff.abort()), 60_000) });
    expect(await waiting).toEqual({ status: "aborted" });
    expect(calls).toHaveLength(1);

    const before = new AbortController();
    before.abort();
    const none = scripted([text("never")]);
    expect(await complete({ stream: none.stream, model, context, signal: before.signal })).toEqual({ status: "aborted" });
    expect(none.calls).toHaveLength(0);
  });
});
