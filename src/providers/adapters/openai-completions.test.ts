import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm } from "../../../test/support/fake-llm-server.js";
import { collect, fakeModel } from "../../../test/support/fake-llm-models.js";
import type { LlmMessage } from "../../shared/types.js";
import type { LlmContext } from "../types.js";
import { isOpenAiHost, streamOpenAICompletions } from "./openai-completions.js";

let fake: FakeLlm;
beforeAll(async () => void (fake = await startFakeLlmServer()));
afterAll(async () => fake.close());
beforeEach(() => void fake.requests.splice(0));

const model = () => fakeModel("openai-completions", fake.url, { id: "qwen3-coder", provider: "local" });
const user = (text: string): LlmMessage => ({ role: "user", content: text, timestamp: 1 });
const ctx = (messages: LlmMessage[], tools: LlmContext["tools"] = []): LlmContext => ({ systemPrompt: "sys", messages, tools });
const read = { name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } };

describe("openai-completions adapter against a plain /v1/chat/completions server", () => {
  it("streams text and reports usage with cached tokens split out", async () => {
    fake.enqueue({ text: ["Hi ", "there"], usage: { input: 100, output: 10, cacheRead: 900 } });
    const { events, final } = await collect(streamOpenAICompletions(model(), ctx([user("hello")]), { apiKey: "sk-local" }));
    expect(events[0].type).toBe("start");
    expect(events.filter((e) => e.type === "text_delta").map((e) => (e.type === "text_delta" ? e.delta : ""))).toEqual(["Hi ", "there"]);
    expect(final).toMatchObject({ content: [{ type: "text", text: "Hi there" }], stopReason: "stop", responseId: "chatcmpl-fake-1" });
    expect(final.usage).toMatchObject({ input: 100, output: 10, cacheRead: 900, cacheWrite: 0, totalTokens: 1010 });
    expect(final.usage.cost.total).toBeCloseTo((100 * 3 + 10 * 15 + 900 * 0.3) / 1e6, 12);
    const req = fake.requests[0];
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.headers.authorization).toBe("Bearer sk-local");
    expect(req.body).toMatchObject({ model: "qwen3-coder", stream: true, stream_options: { include_usage: true }, max_tokens: 32000 });
    expect(req.body.messages).toEqual([
      { role: "system", content: "sys" },
      { role: "user", content: "hello" },
    ]);
  });

  it("maps reasoning_content to thinking and replays it to the same model", async () => {
    fake.enqueue({ thinking: ["pondering"], text: "42" }, { text: "ok" });
    const first = await collect(streamOpenAICompletions(model(), ctx([user("q")]), { apiKey: "k", thinkingLevel: "high" }));
    expect(first.final.content).toEqual([{ type: "thinking", thinking: "pondering" }, { type: "text", text: "42" }]);
    expect(fake.requests[0].body.reasoning_effort).toBe("high");
    await collect(streamOpenAICompletions(model(), ctx([user("q"), first.final, user("again")]), { apiKey: "k" }));
    expect(fake.requests[1].body.messages[2]).toEqual({ role: "assistant", content: "42", reasoning_content: "pondering" });
    expect(fake.requests[1].body.reasoning_effort).toBeUndefined();
  });

  it("streams two tool calls, then sends tool results as tool messages", async () => {
    fake.enqueue({
      toolCalls: [
        { id: "call_a", name: "read", arguments: { path: "a.ts" } },
        { id: "call_b", name: "read", arguments: { path: "b.ts" } },
      ],
    });
    const { events, final } = await collect(streamOpenAICompletions(model(), ctx([user("read both")], [read]), { apiKey: "k", toolChoice: "required" }));
    expect(final.stopReason).toBe("toolUse");
    expect(final.content).toEqual([
      { type: "toolCall", id: "call_a", name: "read", arguments: { path: "a.ts" } },
      { type: "toolCall", id: "call_b", name: "read", arguments: { path: "b.ts" } },
    ]);
    expect(events.filter((e) => e.type === "toolcall_start").map((e) => (e.type === "toolcall_start" ? e.contentIndex : -1))).toEqual([0, 1]);
    expect(fake.requests[0].body.tool_choice).toBe("required");
    expect(fake.requests[0].body.tools).toEqual([{ type: "function", function: { name: "read", description: "Read a file", parameters: read.parameters } }]);

    fake.enqueue({ text: "both read" });
    const results: LlmMessage[] = [
      { role: "toolResult", toolCallId: "call_a", toolName: "read", content: [{ type: "text", text: "A" }], isError: false, timestamp: 2 },
      { role: "toolResult", toolCallId: "call_b", toolName: "read", content: [{ type: "text", text: "B" }], isError: false, timestamp: 3 },
    ];
    await collect(streamOpenAICompletions(model(), ctx([user("read both"), final, ...results], [read]), { apiKey: "k" }));
    const msgs = fake.requests[1].body.messages;
    expect(msgs[2]).toMatchObject({
      role: "assistant",
      tool_calls: [
        { id: "call_a", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } },
        { id: "call_b", type: "function", function: { name: "read", arguments: '{"path":"b.ts"}' } },
      ],
    });
    expect(msgs.slice(3)).toEqual([
      { role: "tool", tool_call_id: "call_a", content: "A" },
      { role: "tool", tool_call_id: "call_b", content: "B" },
    ]);
  });

  it("parses partial tool arguments progressively and treats malformed final JSON as {}", async () => {
    fake.enqueue({ toolCalls: [{ id: "c1", name: "read", arguments: '{"path":"a.ts", "lim' }] });
    const { events, final } = await collect(streamOpenAICompletions(model(), ctx([user("x")], [read]), { apiKey: "k" }));
    const partials = events.filter((e) => e.type === "toolcall_delta").map((e) => (e.type === "toolcall_delta" ? JSON.stringify(e.partial.content[0]) : ""));
    expect(partials.length).toBeGreaterThan(0);
    expect(final.content[0]).toEqual({ type: "toolCall", id: "c1", name: "read", arguments: {} });
  });

  it("sends images in user messages as image_url data URLs", async () => {
    fake.enqueue({ text: "a dog" });
    const msg: LlmMessage = { role: "user", content: [{ type: "text", text: "see" }, { type: "image", data: "AAAA", mimeType: "image/jpeg" }], timestamp: 1 };
    await collect(streamOpenAICompletions(model(), ctx([msg]), { apiKey: "k" }));
    expect(fake.requests[0].body.messages[1].content).toEqual([
      { type: "text", text: "see" },
      { type: "image_url", image_url: { url: "data:image/jpeg;base64,AAAA" } },
    ]);
  });

  it("replaces images with a note for text-only models", async () => {
    fake.enqueue({ text: "ok" });
    const msg: LlmMessage = { role: "user", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 1 };
    await collect(streamOpenAICompletions({ ...model(), input: ["text"] }, ctx([msg]), { apiKey: "k" }));
    expect(JSON.stringify(fake.requests[0].body.messages[1])).toContain("image omitted");
  });

  it.each([400, 429])("maps HTTP %i to '<status> <body>' with retry-after-ms", async (status) => {
    const body = { error: { message: status === 400 ? "This model's maximum context length is 8192 tokens" : "Rate limit reached", type: "x" } };
    fake.enqueue({ error: { status, body, headers: { "retry-after-ms": "1500" } } });
    const { events, final } = await collect(streamOpenAICompletions(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toBe(`${status} ${JSON.stringify(body)}`);
    expect(final.providerPayload).toEqual({ retryAfterMs: 1500 });
  });

  it("reports an exhausted fake script as a 500 error", async () => {
    const { final } = await collect(streamOpenAICompletions(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(final.errorMessage).toMatch(/^500 .*fake-llm: script exhausted/);
  });

  it("aborts mid-stream without throwing", async () => {
    fake.enqueue({ text: ["one ", "two"], hang: true });
    const controller = new AbortController();
    const events = [];
    for await (const e of streamOpenAICompletions(model(), ctx([user("q")]), { apiKey: "k", signal: controller.signal })) {
      events.push(e);
      if (e.type === "text_delta" && e.delta === "two") controller.abort();
    }
    const last = events[events.length - 1];
    expect(last.type === "error" && last.reason).toBe("aborted");
    expect(last.type === "error" && last.error).toMatchObject({ stopReason: "aborted", errorMessage: "Request was aborted", content: [{ type: "text", text: "one two" }] });
  });

  it("aborts before the request starts", async () => {
    const controller = new AbortController();
    controller.abort();
    const { events, final } = await collect(streamOpenAICompletions(model(), ctx([user("q")]), { apiKey: "k", signal: controller.signal }));
    expect(events.map((e) => e.type)).toEqual(["start", "error"]);
    expect(final.stopReason).toBe("aborted");
    expect(fake.requests).toHaveLength(0);
  });

  it("ends with an error when the socket is cut mid-stream", async () => {
    fake.enqueue({ text: ["x", "y", "z"], cutAfterChunks: 2 });
    const { final } = await collect(streamOpenAICompletions(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toMatch(/^terminated/);
  });

  it("ends with an error when the stream stops without a finish", async () => {
    fake.enqueue({ text: ["x"], endEarly: true });
    const { final } = await collect(streamOpenAICompletions(model(), ctx([user("q")]), { apiKey: "k" }));
    expect(final).toMatchObject({ stopReason: "error", content: [{ type: "text", text: "x" }] });
    expect(final.errorMessage).toMatch(/^stream ended unexpectedly/);
  });

  it("sends no Authorization without a key, and takes nothing from OPENAI_* variables", async () => {
    fake.enqueue({ text: "ok" });
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: "sk-env", OPENAI_ORG_ID: "org-env", OPENAI_PROJECT_ID: "proj-env", OPENAI_BASE_URL: "http://127.0.0.1:1/v1" });
    try {
      const { final } = await collect(streamOpenAICompletions(model(), ctx([user("q")]), {}));
      expect(final.stopReason).toBe("stop");
    } finally {
      for (const k of ["OPENAI_API_KEY", "OPENAI_ORG_ID", "OPENAI_PROJECT_ID", "OPENAI_BASE_URL"]) if (saved[k] === undefined) delete process.env[k];
    }
    const headers = fake.requests[0].headers;
    expect(headers.authorization).toBeUndefined();
    expect(headers["openai-organization"]).toBeUndefined();
    expect(headers["openai-project"]).toBeUndefined();
  });

  it("reports a refused connection as a network error", async () => {
    const { final } = await collect(streamOpenAICompletions({ ...model(), baseUrl: "http://127.0.0.1:1/v1" }, ctx([user("q")]), { apiKey: "k" }));
    expect(final.stopReason).toBe("error");
    expect(final.errorMessage).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe("isOpenAiHost", () => {
  it("recognises only api.openai.com", () => {
    expect(isOpenAiHost("https://api.openai.com/v1")).toBe(true);
    expect(isOpenAiHost("http://127.0.0.1:8080/v1")).toBe(false);
    expect(isOpenAiHost("not a url")).toBe(false);
  });
});
