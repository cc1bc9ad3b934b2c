import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm } from "../../../test/support/fake-llm-server.js";
import { collect, fakeModel } from "../../../test/support/fake-llm-models.js";
import type { AssistantMessage, LlmMessage, Model } from "../../shared/types.js";
import type { LlmContext, StreamOptions } from "../types.js";
import { streamAnthropic } from "./anthropic.js";
import { buildCallOptions } from "./ai-sdk-stream.js";
import { streamOpenAICompletions } from "./openai-completions.js";
import { completionsAdapterSpec } from "./openai-host.js";
import { responsesAdapterSpec, streamOpenAIResponses } from "./openai-responses.js";
import { openAiCacheRetention, placeAnthropicBreakpoints, promptCacheKey } from "./prompt-cache.js";

let fake: FakeLlm;
beforeAll(async () => void (fake = await startFakeLlmServer({ promptCache: true })));
afterAll(async () => fake.close());
beforeEach(() => {
  fake.requests.splice(0);
  fake.bills.splice(0);
});

const claude = () => fakeModel("anthropic-messages", fake.url, { id: "claude-sonnet-4-0", provider: "anthropic", reasoning: false });
const user = (text: string): LlmMessage => ({ role: "user", content: text, timestamp: 1 });
const tool = (name: string) => ({ name, description: `The ${name} tool`, parameters: { type: "object", properties: { path: { type: "string" } } } });
const ctx = (messages: LlmMessage[]): LlmContext => ({ systemPrompt: "You are pith.", messages, tools: [tool("read"), tool("bash")] });
const EPHEMERAL = { type: "ephemeral" };

/** Every cache_control in a request body, by where it sits. */
function breakpoints(body: any): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  body.tools?.forEach((t: any, i: number) => t.cache_control && (out[`tool${i}`] = t.cache_control));
  body.system?.forEach((s: any, i: number) => s.cache_control && (out[`system${i}`] = s.cache_control));
  body.messages.forEach((m: any, i: number) =>
    m.content.forEach((c: any, j: number) => c.cache_control && (out[`msg${i}.${j}`] = c.cache_control)),
  );
  return out;
}

async function run(messages: LlmMessage[], options: StreamOptions = {}): Promise<AssistantMessage> {
  return (await collect(streamAnthropic(claude(), ctx(messages), { apiKey: "k", ...options }))).final;
}

describe("Anthropic cache breakpoints", () => {
  it("marks the tools, the system prompt and the last message; the next request reads the whole previous one", async () => {
    fake.enqueue({ toolCalls: [{ id: "toolu_1", name: "read", arguments: { path: "a.ts" } }] }, { text: "done" });
    const first = await run([user("read a.ts")]);
    expect(breakpoints(fake.requests[0].body)).toEqual({ tool1: EPHEMERAL, system0: EPHEMERAL, "msg0.0": EPHEMERAL });
    expect(fake.bills[0]).toMatchObject({ cacheRead: 0, input: 0, breakpoints: 3 });
    expect(first.usage.cacheWrite).toBe(fake.bills[0].cacheWrite);

    const result: LlmMessage = { role: "toolResult", toolCallId: "toolu_1", toolName: "read", content: [{ type: "text", text: "x".repeat(4000) }], isError: false, timestamp: 2 };
    const second = await run([user("read a.ts"), first, result]);
    // the previous request's last block keeps a breakpoint; the new last block gets one
    expect(breakpoints(fake.requests[1].body)).toEqual({ tool1: EPHEMERAL, system0: EPHEMERAL, "msg0.0": EPHEMERAL, "msg2.0": EPHEMERAL });
    const bill = fake.bills[1];
    expect(bill.cacheRead).toBe(fake.bills[0].cacheWrite);
    expect(bill.cacheWrite).toBeGreaterThan(1000); // the tool call and its 4 KB result
    expect(bill.input).toBe(0);
    expect(second.usage).toMatchObject({ input: 0, cacheRead: bill.cacheRead, cacheWrite: bill.cacheWrite });
    expect(second.usage.cost.cacheRead).toBeCloseTo((bill.cacheRead * 0.3) / 1e6, 12);
  });

  it('"long" asks for a 1-hour ttl and prices those writes at their own rate', async () => {
    fake.enqueue({ text: "ok" });
    const reply = await run([user("hi")], { cacheRetention: "long" });
    const ttl = { type: "ephemeral", ttl: "1h" };
    expect(breakpoints(fake.requests[0].body)).toEqual({ tool1: ttl, system0: ttl, "msg0.0": ttl });
    expect(reply.usage.cacheWrite1h).toBe(reply.usage.cacheWrite);
    expect(reply.usage.cost.cacheWrite).toBeCloseTo((reply.usage.cacheWrite * 6) / 1e6, 12);
  });

  it('"none" sends no breakpoint and every token is plain input', async () => {
    fake.enqueue({ text: "ok" });
    const reply = await run([user("hi")], { cacheRetention: "none" });
    expect(breakpoints(fake.requests[0].body)).toEqual({});
    expect(reply.usage).toMatchObject({ cacheRead: 0, cacheWrite: 0 });
    expect(reply.usage.input).toBe(fake.bills[0].input);
  });

  it("marks the previous request's end even when a steering message follows the tool results", () => {
    const text = (t: string) => [{ type: "text" as const, text: t }];
    const call: Parameters<typeof placeAnthropicBreakpoints>[0] = {
      tools: [{ type: "function", name: "read", inputSchema: { type: "object" } }],
      prompt: [
        { role: "system", content: "s" },
        { role: "user", content: text("go") },
        { role: "assistant", content: [{ type: "tool-call", toolCallId: "t1", toolName: "read", input: {} }] },
        { role: "tool", content: [{ type: "tool-result", toolCallId: "t1", toolName: "read", output: { type: "text", value: "x" } }] },
        { role: "user", content: text("also check b") },
      ],
    };
    expect(placeAnthropicBreakpoints(call, "short")).toBe(4);
    const marked = call.prompt.map((m) => m.providerOptions?.anthropic?.cacheControl !== undefined);
    expect(marked).toEqual([true, true, false, false, true]);
    expect(call.tools![0].type === "function" && call.tools![0].providerOptions?.anthropic?.cacheControl).toEqual(EPHEMERAL);
  });

  it("places at most 4 and none on an empty conversation", () => {
    const call = { prompt: [{ role: "system" as const, content: "s" }] };
    expect(placeAnthropicBreakpoints(call, "short")).toBe(1);
    expect(placeAnthropicBreakpoints({ prompt: [] }, "short")).toBe(0);
    expect(placeAnthropicBreakpoints({ prompt: [{ role: "user", content: [{ type: "text", text: "u" }] }] }, "none")).toBe(0);
  });
});

describe("OpenAI prompt_cache_key", () => {
  const flagged = (api: string): Model => fakeModel(api, fake.url, { reasoning: false, compat: { promptCacheKey: true } });

  it("is sent on chat completions when the model's compat asks for it, and not otherwise", async () => {
    fake.enqueue({ text: "a" }, { text: "b" }, { text: "c" });
    await collect(streamOpenAICompletions(flagged("openai-completions"), ctx([user("hi")]), { apiKey: "k", sessionId: "sess-1" }));
    await collect(streamOpenAICompletions(fakeModel("openai-completions", fake.url, { reasoning: false }), ctx([user("hi")]), { apiKey: "k", sessionId: "sess-1" }));
    await collect(streamOpenAICompletions(flagged("openai-completions"), ctx([user("hi")]), { apiKey: "k", sessionId: "sess-1", cacheRetention: "none" }));
    expect(fake.requests.map((r) => r.body.prompt_cache_key)).toEqual(["sess-1", undefined, undefined]);
  });

  it("is sent on the responses API when the model's compat asks for it, and not otherwise", async () => {
    fake.enqueue({ text: "a" }, { text: "b" });
    const one = await collect(streamOpenAIResponses(flagged("openai-responses"), ctx([user("hi")]), { apiKey: "k", sessionId: "sess-2" }));
    expect(one.final.content).toEqual([{ type: "text", text: "a" }]);
    await collect(streamOpenAIResponses(fakeModel("openai-responses", fake.url, { reasoning: false }), ctx([user("hi")]), { apiKey: "k", sessionId: "sess-2" }));
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/responses", "/v1/responses"]);
    expect(fake.requests.map((r) => r.body.prompt_cache_key)).toEqual(["sess-2", undefined]);
  });

  it("OpenAI's own host gets it through the OpenAI client's promptCacheKey on both APIs", () => {
    const openai = (api: string) => fakeModel(api, "https://api.openai.com/v1", { reasoning: false });
    const opts = { sessionId: "sess-3" };
    expect(buildCallOptions(completionsAdapterSpec, openai("openai-completions"), ctx([user("hi")]), opts).providerOptions).toMatchObject({ openai: { promptCacheKey: "sess-3" } });
    expect(buildCallOptions(responsesAdapterSpec, openai("openai-responses"), ctx([user("hi")]), opts).providerOptions).toMatchObject({ openai: { promptCacheKey: "sess-3" } });
    const none = buildCallOptions(completionsAdapterSpec, openai("openai-completions"), ctx([user("hi")]), { ...opts, cacheRetention: "none" });
    expect(none.providerOptions?.openai?.promptCacheKey).toBeUndefined();
  });

  it("cacheRetention long asks OpenAI's own host for 24-hour retention on both APIs, and no other server", () => {
    const openai = (api: string) => fakeModel(api, "https://api.openai.com/v1", { reasoning: false });
    const long = { sessionId: "s", cacheRetention: "long" as const };
    for (const [spec, api] of [[completionsAdapterSpec, "openai-completions"], [responsesAdapterSpec, "openai-responses"]] as const) {
      expect(buildCallOptions(spec, openai(api), ctx([user("hi")]), long).providerOptions).toMatchObject({ openai: { promptCacheKey: "s", promptCacheRetention: "24h" } });
      expect(buildCallOptions(spec, openai(api), ctx([user("hi")]), { sessionId: "s" }).providerOptions?.openai?.promptCacheRetention).toBeUndefined();
    }
    expect(openAiCacheRetention(flagged("openai-completions"), long)).toBeUndefined();
  });

  it("goes to OpenAI's own host by default; compat false turns it off", () => {
    const openai = fakeModel("openai-responses", "https://api.openai.com/v1");
    expect(promptCacheKey(openai, { sessionId: "s" })).toBe("s");
    expect(promptCacheKey({ ...openai, compat: { promptCacheKey: false } }, { sessionId: "s" })).toBeUndefined();
    expect(promptCacheKey(openai, {})).toBeUndefined();
  });
});
