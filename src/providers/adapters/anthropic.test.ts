import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm } from "../../../test/support/fake-llm-server.js";
import { collect, fakeModel } from "../../../test/support/fake-llm-models.js";
import type { AssistantMessage, LlmMessage } from "../../shared/types.js";
import type { LlmContext } from "../types.js";
import { anthropicBaseUrl, streamAnthropic } from "./anthropic.js";

let fake: FakeLlm;
beforeAll(async () => void (fake = await startFakeLlmServer()));
afterAll(async () => fake.close());
beforeEach(() => void fake.requests.splice(0));

const model = () => fakeModel("anthropic-messages", fake.url, { id: "claude-sonnet-4-0", provider: "anthropic" });
const user = (text: string): LlmMessage => ({ role: "user", content: text, timestamp: 1 });
const ctx = (messages: LlmMessage[], tools: LlmContext["tools"] = []): LlmContext => ({ systemPrompt: "You are pith.", messages, tools });
const bash = { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } };

describe("anthropic adapter against the fake server", () => {
  it("streams text with start first and done last, sending key, headers and system prompt", async () => {
    fake.enqueue({ text: ["Hel", "lo!"] });
    const m = { ...model(), headers: { "x-team": "core" } };
    const { events, final } = await collect(streamAnthropic(m, ctx([user("hi")]), { apiKey: "sk-test", headers: { "x-call": "1" }, cacheRetention: "none" }));
    expect(events.map((e) => e.type)).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
    const start = events[0];
    expect(start.type === "start" && start.partial.stopReason).toBe("stop");
    expect(final).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Hello!" }], stopReason: "stop", responseId: "msg_fake_1" });
    const req = fake.requests[0];
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["x-api-key"]).toBe("sk-test");
    expect(req.headers["x-team"]).toBe("core");
    expect(req.headers["x-call"]).toBe("1");
    expect(req.body.system).toEqual([{ type: "text", text: "You are pith." }]);
    expect(req.body.max_tokens).toBe(32000);
    expect(req.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "hi" }] }]);
  });

  it("round-trips a thinking signature into the next request body", async () => {
    fake.enqueue({ thinking: ["Let me ", "think."], signature: "EqQBsig==", text: "Answer." }, { text: "ok" });
    const first = await collect(streamAnthropic(model(), ctx([user("q")]), { apiKey: "k", thinkingLevel: "medium" }));
    expect(first.final.content[0]).toEqual({ type: "thinking", thinking: "Let me think.", thinkingSignature: "EqQBsig==" });
    expect(fake.requests[0].body.thinking).toEqual({ type: "enabled", budget_tokens: 8192 });
    expect(fake.requests[0].body.max_tokens).toBe(32000 + 8192);
    await collect(streamAnthropic(model(), ctx([user("q"), first.final, user("more")]), { apiKey: "k", thinkingLevel: "medium" }));
    expect(fake.requests[1].body.messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Let me think.", signature: "EqQBsig==" },
        { type: "text", text: "Answer." },
      ],
    });
  });

  it("replays redacted thinking for the same model and turns foreign thinking into text", async () => {
    fake.enqueue({ text: "ok" });
    const mine: AssistantMessage = { ...assistantBase(), content: [{ type: "redactedThinking", data: "opaque" }, { type: "text", text: "A" }] };
    const foreign: AssistantMessage = {
      ...assistantBase(),
      model: "other",
      content: [{ type: "thinking", thinking: "foreign thought", thinkingSignature: "x" }, { type: "thinking", thinking: "  " }, { type: "text", text: "B" }],
    };
    await collect(streamAnthropic(model(), ctx([user("1"), mine, user("2"), foreign, user("3")]), { apiKey: "k" }));
    const msgs = fake.requests[0].body.messages;
    expect(msgs[1].content).toEqual([{ type: "redacted_thinking", data: "opaque" }, { type: "text", text: "A" }]);
    expect(msgs[3].content).toEqual([{ type: "text", text: "foreign thought" }, { type: "text", text: "B" }]);
  });

  it("streams two tool calls, then sends their results in the next request", async () => {
    fake.enqueue({
      text: "Running.",
      toolCalls: [
        { id: "toolu_1", name: "bash", arguments: { command: "ls" } },
        { id: "toolu_2", name: "bash", arguments: { command: "pwd" } },
      ],
    });
    const { events, final } = await collect(streamAnthropic(model(), ctx([user("go")], [bash]), { apiKey: "k", toolChoice: "auto" }));
    expect(final.stopReason).toBe("toolUse");
    const ends = events.filter((e) => e.type === "toolcall_end");
    expect(ends.map((e) => e.type === "toolcall_end" && e.toolCall)).toEqual([
      { type: "toolCall", id: "toolu_1", name: "bash", arguments: { command: "ls" } },
      { type: "toolCall", id: "toolu_2", name: "bash", arguments: { command: "pwd" } },
    ]);
    const deltas = events.filter((e) => e.type === "toolcall_delta").map((e) => (e.type === "toolcall_delta" ? e.delta : ""));
    expect(deltas.join("")).toBe('{"command":"ls"}{"command":"pwd"}');
    expect(fake.requests[0].body.tools[0]).toMatchObject({ name: "bash", input_schema: bash.parameters });
    expect(fake.requests[0].body.tool_choice).toEqual({ type: "auto" });

    fake.enqueue({ text: "Done." });
    const results: LlmMessage[] = [
      { role: "toolResult", toolCallId: "toolu_1", toolName: "bash", content: [{ type: "text", text: "a.ts" }], isError: false, timestamp: 2 },
      { role: "toolResult", toolCallId: "toolu_2", toolName: "bash", content: [{ type: "text", text: "boom" }], isError: true, timestamp: 3 },
    ];
    await collect(streamAnthropic(model(), ctx([user("go"), final, ...results], [bash]), { apiKey: "k", cacheRetention: "none" }));
    const msgs = fake.requests[1].body.messages;
    expect(msgs[1].content.filter((c: any) => c.type === "tool_use")).toEqual([
      { type: "tool_use", id: "toolu_1", name: "bash", input: { command: "ls" } },
      { type: "tool_use", id: "toolu_2", name: "bash", input: { command: "pwd" } },
    ]);
    expect(msgs[2]).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "toolu_1", content: "a.ts" },
        { type: "tool_result", tool_use_id: "toolu_2", content: "boom", is_error: true },
      ],
    });
  });

  it("gives orphaned tool calls a synthetic error result and sanitises foreign ids", async () => {
    fake.enqueue({ text: "ok" });
    const orphan: AssistantMessage = { ...assistantBase(), content: [{ type: "toolCall", id: "call|abc", name: "bash", arguments: {} }], stopReason: "toolUse" };
    await collect(streamAnthropic(model(), ctx([user("1"), orphan, user("2")]), { apiKey: "k", cacheRetention: "none" }));
    const msgs = fake.requests[0].body.messages;
    expect(msgs[1].content[0]).toMatchObject({ type: "tool_use", id: "call_abc" });
    expect(msgs[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "call_abc", is_error: true });
    expect(msgs[2].content[1]).toEqual({ type: "text", text: "2" });
  });

  it("sends images in user messages as base64 image blocks", async () => {
    fake.enqueue({ text: "a cat" });
    const msg: LlmMessage = { role: "user", content: [{ type: "text", text: "what?" }, { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" }], timestamp: 1 };
    await collect(streamAnthropic(model(), ctx([msg]), { apiKey: "k", cacheRetention: "none" }));
    expect(fake.requests[0].body.messages[0].content).toEqual([
      { type: "text", text: "what?" },
      { type: "image", source: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" } },
    ]);
  });

  it("computes usage and cost from the wire usage", async () => {
    fake.enqueue({ text: "x", usage: { input: 1000, output: 200, cacheRead: 10_000, cacheWrite: 500 } });
    const { final } = await collect(streamAnthropic(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(final.usage).toMatchObject({ input: 1000, output: 200, cacheRead: 10_000, cacheWrite: 500, totalTokens: 11_700 });
    expect(final.usage.cost.input).toBeCloseTo(0.003, 10);
    expect(final.usage.cost.output).toBeCloseTo(0.003, 10);
    expect(final.usage.cost.cacheRead).toBeCloseTo(0.003, 10);
    expect(final.usage.cost.cacheWrite).toBeCloseTo(0.001875, 10);
    expect(final.usage.cost.total).toBeCloseTo(0.010875, 10);
    expect(typeof final.duration).toBe("number");
    expect(typeof final.ttft).toBe("number");
  });

  it.each([
    [400, { type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum" } }],
    [529, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }],
  ])("maps HTTP %i to an error message that starts with the status and keeps the body", async (status, body) => {
    fake.enqueue({ error: { status, body } });
    const { events, final } = await collect(streamAnthropic(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toBe(`${status} ${JSON.stringify(body)}`);
  });

  it("reports retry-after from a 429 as providerPayload.retryAfterMs", async () => {
    fake.enqueue({ error: { status: 429, body: { type: "error", error: { type: "rate_limit_error", message: "slow down" } }, headers: { "retry-after": "7" } } });
    const { final } = await collect(streamAnthropic(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(final.errorMessage).toMatch(/^429 .*rate_limit_error/);
    expect(final.providerPayload).toEqual({ retryAfterMs: 7000 });
  });

  it("ends an aborted stream with stopReason aborted and keeps what streamed", async () => {
    fake.enqueue({ text: ["partial ", "text"], hang: true });
    const controller = new AbortController();
    const events = [];
    for await (const e of streamAnthropic(model(), ctx([user("q")]), { apiKey: "k", signal: controller.signal })) {
      events.push(e);
      if (e.type === "text_delta" && e.partial.content[0].type === "text" && e.partial.content[0].text === "partial text") controller.abort();
    }
    const last = events[events.length - 1];
    expect(last.type).toBe("error");
    if (last.type !== "error") return;
    expect(last.reason).toBe("aborted");
    expect(last.error).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: "partial text" }] });
  });

  it("ends with an error when the connection is cut mid-stream", async () => {
    fake.enqueue({ text: ["a", "b", "c"], cutAfterChunks: 3 });
    const { final } = await collect(streamAnthropic(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toMatch(/^terminated/);
    expect(final.content).toEqual([{ type: "text", text: "a" }]);
  });

  it("ends with an error when the stream stops before message_stop", async () => {
    fake.enqueue({ text: ["x"], endEarly: true });
    const { final } = await collect(streamAnthropic(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(final).toMatchObject({ stopReason: "error", errorMessage: "stream ended unexpectedly" });
  });

  it("uses adaptive thinking with an effort for Claude 4.6+", async () => {
    fake.enqueue({ text: "ok" });
    await collect(streamAnthropic({ ...model(), id: "claude-opus-4-6" }, ctx([user("q")]), { apiKey: "k", thinkingLevel: "xhigh" }));
    expect(fake.requests[0].body.thinking).toMatchObject({ type: "adaptive" });
    expect(fake.requests[0].body.output_config).toEqual({ effort: "max" });
  });
});

describe("anthropicBaseUrl", () => {
  it("appends /v1 unless present", () => {
    expect(anthropicBaseUrl("https://api.anthropic.com")).toBe("https://api.anthropic.com/v1");
    expect(anthropicBaseUrl("http://127.0.0.1:9/v1/")).toBe("http://127.0.0.1:9/v1");
  });
});

function assistantBase(): AssistantMessage {
  return {
    role: "assistant",
    content: [],
    api: "anthropic-messages",
    provider: "anthropic",
    model: "claude-sonnet-4-0",
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: "stop",
    timestamp: 1,
  };
}
