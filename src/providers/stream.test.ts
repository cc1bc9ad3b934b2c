import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeLlmServer, type FakeLlm } from "../../test/support/fake-llm-server.js";
import { collect, fakeModel } from "../../test/support/fake-llm-models.js";
import { streamAssistant, SUPPORTED_APIS } from "./stream.js";

let fake: FakeLlm;
beforeAll(async () => void (fake = await startFakeLlmServer()));
afterAll(async () => fake.close());

describe("streamAssistant", () => {
  it("answers an unknown api with a single terminal error event instead of throwing", async () => {
    const { events, final } = await collect(streamAssistant(fakeModel("bedrock-converse-stream", fake.url), { systemPrompt: "", messages: [], tools: [] }, {}));
    expect(events).toHaveLength(1);
    expect(final).toMatchObject({ stopReason: "error", api: "bedrock-converse-stream" });
    expect(final.errorMessage).toContain("bedrock-converse-stream");
  });

  it("dispatches to the lazily loaded adapter for the model's api", async () => {
    fake.enqueue({ text: "via dispatch" }, { text: "anthropic too" });
    const ctx = { systemPrompt: "", messages: [{ role: "user" as const, content: "hi", timestamp: 1 }], tools: [] };
    const a = await collect(streamAssistant(fakeModel("openai-completions", fake.url), ctx, { apiKey: "k" }));
    const b = await collect(streamAssistant(fakeModel("anthropic-messages", fake.url), ctx, { apiKey: "k" }));
    expect(a.final.content).toEqual([{ type: "text", text: "via dispatch" }]);
    expect(b.final.content).toEqual([{ type: "text", text: "anthropic too" }]);
    expect(fake.requests.map((r) => r.path)).toEqual(["/v1/chat/completions", "/v1/messages"]);
  });

  it("lists the supported apis", () => {
    expect([...SUPPORTED_APIS].sort()).toEqual(["anthropic-messages", "google-generative-ai", "openai-completions", "openai-responses", "scripted"]);
  });

  it("does not load any AI SDK package at import time", async () => {
    const { readFile } = await import("node:fs/promises");
    const src = await readFile(new URL("./stream.ts", import.meta.url), "utf8");
    expect(src).not.toMatch(/^import[^;]*["']@ai-sdk|^import[^;]*["']ai["']/m);
    expect(src).not.toMatch(/^import[^;]*adapters\//m);
  });
});
