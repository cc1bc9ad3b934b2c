import { describe, expect, it } from "vitest";
import type { Model } from "../../shared/types.js";
import { nextModel } from "./model-cycle.js";
import { cycleThinkingLevel, deriveThinking, resolveThinkingLevel, supportedEfforts } from "./thinking.js";

function model(id: string, api: string, extra: Partial<Model> = {}): Model {
  return {
    id,
    name: id,
    api,
    provider: "p",
    baseUrl: "http://x",
    reasoning: true,
    input: ["text"],
    cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    contextWindow: 1000,
    maxTokens: 100,
    ...extra,
  };
}

const gpt52 = model("gpt-5.2", "openai-responses");
const gpt5 = model("gpt-5", "openai-responses");
const codexMini = model("gpt-5.1-codex-mini", "openai-responses");
const gemini3pro = model("gemini-3-pro-preview", "google-generative-ai");
const opus46 = model("claude-opus-4-6", "anthropic-messages");
const sonnet46 = model("claude-sonnet-4-6", "anthropic-messages");
const plain = model("llama", "openai-completions", { reasoning: false });

describe("supportedEfforts", () => {
  it.each([
    [gpt52, ["low", "medium", "high", "xhigh"]],
    [gpt5, ["minimal", "low", "medium", "high"]],
    [codexMini, ["medium", "high"]],
    [gemini3pro, ["low", "high"]],
    [model("gemini-2.5-flash", "google-generative-ai"), ["minimal", "low", "medium", "high"]],
    [opus46, ["minimal", "low", "medium", "high", "xhigh"]],
    [sonnet46, ["minimal", "low", "medium", "high"]],
    [model("claude-3-7-sonnet", "anthropic-messages"), ["minimal", "low", "medium", "high", "xhigh"]],
    [model("x", "openai-completions", { compat: { thinkingFormat: "zai" } }), ["minimal", "low", "medium", "high"]],
    [model("x", "openai-completions"), ["minimal", "low", "medium", "high", "xhigh"]],
    [model("x", "other-api"), ["minimal", "low", "medium", "high"]],
    [plain, []],
  ])("%s", (m, expected) => {
    expect(supportedEfforts(m)).toEqual(expected);
  });

  it("intersects the family with the model's thinking range", () => {
    const m = model("claude-opus-4-6", "anthropic-messages", { thinking: { minLevel: "low", maxLevel: "high", mode: "anthropic-adaptive" } });
    expect(supportedEfforts(m)).toEqual(["low", "medium", "high"]);
  });
});

describe("resolveThinkingLevel", () => {
  it.each([
    [gpt52, "inherit", undefined],
    [gpt52, undefined, undefined],
    [gpt52, "bogus", undefined],
    [gpt52, 3, undefined],
    [gpt52, "off", "off"],
    [plain, "off", "off"],
    [plain, "high", undefined],
    [gpt52, "minimal", "low"], // below every supported level → lowest supported
    [gpt52, "xhigh", "xhigh"],
    [gpt5, "xhigh", "high"], // highest supported not above the request
    [gemini3pro, "medium", "low"],
    [gemini3pro, "xhigh", "high"],
    [codexMini, "low", "medium"],
    [undefined, "xhigh", "xhigh"], // no model: kept as is
    [undefined, "inherit", undefined],
  ])("%# %s + %s → %s", (m, input, expected) => {
    expect(resolveThinkingLevel(m as Model | undefined, input)).toBe(expected);
  });
});

describe("cycleThinkingLevel", () => {
  it("returns null without a reasoning model", () => {
    expect(cycleThinkingLevel(undefined, "off")).toBeNull();
    expect(cycleThinkingLevel(plain, "off")).toBeNull();
  });
  it("walks off → efforts → off", () => {
    expect(cycleThinkingLevel(gemini3pro, undefined)).toBe("off");
    expect(cycleThinkingLevel(gemini3pro, "off")).toBe("low");
    expect(cycleThinkingLevel(gemini3pro, "low")).toBe("high");
    expect(cycleThinkingLevel(gemini3pro, "high")).toBe("off");
    expect(cycleThinkingLevel(gpt52, "xhigh")).toBe("off");
    expect(cycleThinkingLevel(gpt5, "high")).toBe("off");
  });
  it("continues after the clamped level for an unsupported current level", () => {
    expect(cycleThinkingLevel(gemini3pro, "medium")).toBe("high");
  });
});

describe("deriveThinking", () => {
  it("intersects pi's level map with the family rules", () => {
    expect(deriveThinking(gpt52, { off: null, xhigh: "xhigh" })).toEqual({ minLevel: "low", maxLevel: "xhigh", mode: "effort" });
    expect(deriveThinking(sonnet46, undefined)).toEqual({ minLevel: "minimal", maxLevel: "high", mode: "anthropic-adaptive" });
    expect(deriveThinking(model("claude-sonnet-4-5", "anthropic-messages"), undefined)?.mode).toBe("anthropic-budget-effort");
    expect(deriveThinking(plain, undefined)).toBeUndefined();
  });
});

describe("nextModel", () => {
  const a = model("a", "x");
  const b = model("b", "x");
  const c = model("c", "x");
  it("returns the entry after the current one, wrapping", () => {
    expect(nextModel([a, b, c], a)).toBe(b);
    expect(nextModel([a, b, c], c)).toBe(a);
  });
  it("treats an unknown current model as entry 0", () => {
    expect(nextModel([a, b, c], model("zzz", "x"))).toBe(b);
    expect(nextModel([a, b, c], undefined)).toBe(b);
  });
  it("compares provider and id", () => {
    expect(nextModel([a, b], { provider: "other", id: "b" })).toBe(b);
  });
  it("returns null for fewer than two candidates", () => {
    expect(nextModel([a], a)).toBeNull();
    expect(nextModel([], undefined)).toBeNull();
  });
});
