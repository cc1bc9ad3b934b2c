import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm } from "./fake-llm-server.js";

let fake: FakeLlm;
beforeAll(async () => void (fake = await startFakeLlmServer({ models: ["a", "b"] })));
afterAll(async () => fake.close());

const post = (path: string, body: unknown) =>
  fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json", "x-probe": "1" }, body: JSON.stringify(body) });

function dataLines(sse: string): any[] {
  return sse
    .split("\n")
    .filter((l) => l.startsWith("data: ") && l !== "data: [DONE]")
    .map((l) => JSON.parse(l.slice(6)));
}

describe("fake LLM server", () => {
  it("lists configured models and records requests before replying", async () => {
    const res = await fetch(`${fake.url}/models`);
    expect(await res.json()).toMatchObject({ object: "list", data: [{ id: "a", object: "model" }, { id: "b" }] });
    await post("/chat/completions", { stream: true, hello: 1 }).then((r) => r.text());
    const recorded = await fake.waitForRequests(2, 1000);
    expect(recorded[1]).toMatchObject({ method: "POST", path: "/v1/chat/completions", body: { hello: 1 } });
    expect(recorded[1].headers["x-probe"]).toBe("1");
  });

  it("answers an exhausted script with a clear 500", async () => {
    const res = await post("/messages", {});
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("fake-llm: script exhausted");
  });

  it("speaks OpenAI chunks with tool calls and a usage chunk when asked", async () => {
    fake.enqueue({ text: "hi", toolCalls: [{ id: "c1", name: "x", arguments: { a: 1 } }], usage: { input: 3, output: 4 } });
    const text = await post("/chat/completions", { model: "m", stream: true, stream_options: { include_usage: true } }).then((r) => r.text());
    const chunks = dataLines(text);
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(chunks.some((c) => c.choices[0]?.delta?.content === "hi")).toBe(true);
    const args = chunks.flatMap((c) => c.choices[0]?.delta?.tool_calls ?? []).map((t: any) => t.function.arguments).join("");
    expect(args).toBe('{"a":1}');
    expect(chunks.find((c) => c.choices[0]?.finish_reason)?.choices[0].finish_reason).toBe("tool_calls");
    expect(chunks[chunks.length - 1].usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 });
  });

  it("speaks the Anthropic event sequence with thinking and signature", async () => {
    fake.enqueue({ thinking: "t", signature: "S", text: "x" });
    const text = await post("/messages", { model: "claude" }).then((r) => r.text());
    const types = dataLines(text).map((d) => (d.delta?.type ? `${d.type}:${d.delta.type}` : d.type));
    expect(types).toEqual([
      "message_start",
      "content_block_start",
      "content_block_delta:thinking_delta",
      "content_block_delta:signature_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta:text_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
  });

  it("replies with scripted HTTP errors and headers", async () => {
    fake.enqueue({ error: { status: 429, body: { error: "slow" }, headers: { "retry-after": "3" } } });
    const res = await post("/chat/completions", {});
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await res.json()).toEqual({ error: "slow" });
  });

  it("streams 20,000 deltas in big batches", async () => {
    fake.enqueue({ deltas: 20_000 });
    const text = await post("/chat/completions", { stream: true }).then((r) => r.text());
    const deltas = dataLines(text).filter((c) => typeof c.choices[0]?.delta?.content === "string" && c.choices[0].delta.content.length > 0);
    expect(deltas).toHaveLength(20_000);
    expect(deltas[19_999].choices[0].delta.content).toBe("d19999 ");
  });

  it("cuts the socket after N chunks and hangs until the client aborts", async () => {
    fake.enqueue({ text: ["a", "b", "c"], cutAfterChunks: 2 });
    await expect(post("/chat/completions", {}).then((r) => r.text())).rejects.toThrow();
    fake.enqueue({ text: ["a"], hang: true });
    const controller = new AbortController();
    const res = await fetch(`${fake.url}/chat/completions`, { method: "POST", body: "{}", signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("data: ");
    controller.abort();
    await expect(reader.read()).rejects.toThrow();
    expect(fake.pending()).toBe(0);
  });
});
