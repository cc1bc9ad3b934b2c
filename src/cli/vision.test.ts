import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createModelRegistry } from "../providers/models/registry.js";
import type { LlmContext, StreamFn, StreamOptions } from "../providers/types.js";
import { emptyAssistantMessage, type AssistantMessage, type AssistantMessageEvent, type Model } from "../shared/types.js";
import { createVisionPort } from "./vision.js";

const cost = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
const catalog = {
  providers: {
    openai: {
      api: "openai-completions" as const,
      baseUrl: "http://127.0.0.1:1/v1",
      models: [
        { id: "text-only", name: "T", reasoning: false, input: ["text" as const], cost, contextWindow: 1000, maxTokens: 100 },
        { id: "eyes", name: "E", reasoning: false, input: ["text" as const, "image" as const], cost, contextWindow: 1000, maxTokens: 100 },
      ],
    },
  },
};

function setup(reply: (m: Model) => AssistantMessage) {
  const registry = createModelRegistry({ pithHome: mkdtempSync(path.join(tmpdir(), "pith-vision-")), env: { OPENAI_API_KEY: "k" }, warn: () => {}, catalog });
  const calls: Array<{ model: Model; context: LlmContext; options: StreamOptions }> = [];
  const stream: StreamFn = (model, context, options) => {
    calls.push({ model, context, options });
    return (async function* (): AsyncGenerator<AssistantMessageEvent> {
      const final = reply(model);
      if (final.stopReason === "error" || final.stopReason === "aborted") yield { type: "error", reason: final.stopReason, error: final };
      else yield { type: "done", reason: "stop", message: final };
    })();
  };
  return { registry, stream, calls };
}

const image = { type: "image" as const, data: "AAAA", mimeType: "image/png" };
const ask = { image, question: "what is it?", systemPrompt: "describe", signal: new AbortController().signal };

describe("inspect_image's vision port", () => {
  it("asks the configured vision model (selector) with no tools under the watchdog limits, and returns its text and usage", async () => {
    const { registry, stream, calls } = setup((m) => ({
      ...emptyAssistantMessage(m, 0, "stop"),
      content: [{ type: "text", text: "a red " }, { type: "text", text: "dot" }],
      usage: { ...emptyAssistantMessage(m, 0, "stop").usage, input: 5, output: 2 },
    }));
    const port = createVisionPort({ registry, stream, current: () => registry.find("openai", "text-only"), visionModel: "openai/eyes", timeouts: { firstByteTimeoutMs: 1000, idleTimeoutMs: 2000 } });
    const out = await port(ask);
    expect(out).toMatchObject({ text: "a red dot", model: "openai/eyes", usage: { input: 5, output: 2 } });
    expect(calls).toHaveLength(1);
    expect(calls[0].model.id).toBe("eyes");
    expect(calls[0].context.tools).toEqual([]);
    expect(calls[0].context.messages[0].content).toEqual([image, { type: "text", text: "what is it?" }]);
    expect(calls[0].options).toMatchObject({ apiKey: "k", firstByteTimeoutMs: 1000, idleTimeoutMs: 2000 });
  });

  it("reports a provider failure and an abort as errors, and a vision model nobody lists", async () => {
    const failing = setup((m) => ({ ...emptyAssistantMessage(m, 0, "error"), errorMessage: "503 overloaded" }));
    await expect(createVisionPort({ ...failing, current: () => failing.registry.find("openai", "eyes") })(ask)).rejects.toThrow("503 overloaded");
    const aborted = setup((m) => emptyAssistantMessage(m, 0, "aborted"));
    await expect(createVisionPort({ ...aborted, current: () => aborted.registry.find("openai", "eyes") })(ask)).rejects.toThrow("inspect_image request aborted.");
    await expect(createVisionPort({ ...failing, current: () => undefined, visionModel: "nope/x" })(ask)).rejects.toThrow("images.visionModel nope/x is not a known model.");
  });
});
