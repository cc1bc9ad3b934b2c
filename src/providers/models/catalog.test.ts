import { describe, expect, it } from "vitest";
import { bundledCatalog, expandCatalog } from "./catalog.js";
import { PROVIDER_DEFAULTS } from "./default-model.js";
import { SUPPORTED_APIS } from "./models-json.js";

const byProvider = expandCatalog(bundledCatalog());
const all = [...byProvider.values()].flat();

describe("bundled catalogue", () => {
  it("has Claude, GPT and Gemini models with prices", () => {
    for (const [provider, id] of [["anthropic", "claude-sonnet-4-5"], ["openai", "gpt-5.2"], ["google", "gemini-2.5-pro"]]) {
      const m = byProvider.get(provider)?.find((x) => x.id === id);
      expect(m, `${provider}/${id}`).toBeDefined();
      expect(m!.cost.input).toBeGreaterThan(0);
      expect(m!.cost.output).toBeGreaterThan(m!.cost.input);
    }
  });

  it("matches the protocol docs' gpt-5.2 example", () => {
    const m = byProvider.get("openai")!.find((x) => x.id === "gpt-5.2");
    expect(m).toEqual({
      id: "gpt-5.2",
      name: "GPT-5.2",
      api: "openai-responses",
      provider: "openai",
      baseUrl: "https://api.openai.com/v1",
      reasoning: true,
      input: ["text", "image"],
      cost: { input: 1.75, output: 14, cacheRead: 0.175, cacheWrite: 0 },
      contextWindow: 400000,
      maxTokens: 128000,
      thinking: { mode: "effort", minLevel: "low", maxLevel: "xhigh" },
    });
  });

  it("holds only supported APIs and well-formed models", () => {
    expect(all.length).toBeGreaterThan(300);
    for (const m of all) {
      expect(SUPPORTED_APIS).toContain(m.api);
      expect(m.baseUrl).toMatch(/^https:\/\//);
      expect(m.contextWindow).toBeGreaterThan(0);
      expect(m.maxTokens).toBeGreaterThan(0);
      expect(m.input).toContain("text");
      if (!m.reasoning) expect(m.thinking).toBeUndefined();
    }
  });

  it("has every provider default model", () => {
    for (const [provider, id] of PROVIDER_DEFAULTS) {
      expect(byProvider.get(provider)?.some((m) => m.id === id), `${provider}/${id}`).toBe(true);
    }
  });
});
