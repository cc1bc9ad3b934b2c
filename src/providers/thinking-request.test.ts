import { describe, expect, it } from "vitest";
import type { Model } from "../shared/types.js";
import { budgetSizing, thinkingMode, thinkingRequest } from "./thinking-request.js";

const base: Model = {
  id: "claude-sonnet-4-0",
  name: "m",
  api: "anthropic-messages",
  provider: "anthropic",
  baseUrl: "",
  reasoning: true,
  input: ["text"],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: 200_000,
  maxTokens: 64_000,
};
const m = (over: Partial<Model>): Model => ({ ...base, ...over });

describe("thinkingRequest", () => {
  it("sends nothing when the level is unset or the model cannot reason", () => {
    expect(thinkingRequest(base, undefined)).toEqual({ maxOutputTokens: 32000, wireMaxTokens: 32000, providerOptions: {} });
    expect(thinkingRequest(m({ reasoning: false }), "high").providerOptions).toEqual({});
  });

  it("uses Anthropic budget mode with output sizing (SDK adds the budget itself)", () => {
    const r = thinkingRequest(base, "medium");
    expect(r).toEqual({ maxOutputTokens: 32000, wireMaxTokens: 40192, budgetTokens: 8192, providerOptions: { anthropic: { thinking: { type: "enabled", budgetTokens: 8192 } } } });
    const capped = thinkingRequest(m({ maxTokens: 36000 }), "xhigh");
    expect(capped.wireMaxTokens).toBe(36000);
    expect(capped.budgetTokens).toBe(32768);
    expect(capped.maxOutputTokens).toBe(36000 - 32768);
  });

  it("shrinks the budget when max tokens leave no room, and disables thinking at <= 0", () => {
    expect(budgetSizing({ maxTokens: 8192 }, "xhigh", 8192)).toEqual({ maxTokens: 8192, budget: 7168 });
    expect(budgetSizing({ maxTokens: 1000 }, "minimal", 1000)).toEqual({ maxTokens: 1000, budget: 0 });
    expect(thinkingRequest(m({ maxTokens: 1000 }), "minimal").providerOptions).toEqual({});
  });

  it("maps efforts for adaptive Claude 4.6+ and budget+effort for 4.5", () => {
    expect(thinkingMode(m({ id: "claude-opus-4-6" }))).toBe("anthropic-adaptive");
    expect(thinkingMode(m({ id: "claude-sonnet-4-5-20250929" }))).toBe("anthropic-budget-effort");
    expect(thinkingRequest(m({ id: "claude-opus-4-6" }), "xhigh").providerOptions.anthropic).toMatchObject({ thinking: { type: "adaptive" }, effort: "max" });
    expect(thinkingRequest(m({ id: "claude-opus-4-6" }), "minimal").providerOptions.anthropic.effort).toBe("low");
    expect(thinkingRequest(m({ id: "claude-opus-4-5" }), "high").providerOptions.anthropic).toEqual({ thinking: { type: "enabled", budgetTokens: 16384 }, effort: "high" });
    expect(thinkingRequest(base, "off").providerOptions).toEqual({ anthropic: { thinking: { type: "disabled" } } });
  });

  it("honours a declared thinking mode over the id heuristics", () => {
    const declared = m({ id: "claude-opus-4-6", thinking: { minLevel: "minimal", maxLevel: "high", mode: "budget" } });
    expect(thinkingRequest(declared, "low").providerOptions.anthropic).toEqual({ thinking: { type: "enabled", budgetTokens: 2048 } });
  });

  it("maps OpenAI efforts, with compat.reasoningEffortMap, and sends nothing for off", () => {
    const completions = m({ api: "openai-completions", id: "gpt-5" });
    expect(thinkingRequest(completions, "minimal").providerOptions).toEqual({ openai: { reasoningEffort: "minimal" }, openaiCompatible: { reasoningEffort: "minimal" } });
    expect(thinkingRequest(completions, "off").providerOptions).toEqual({});
    const mapped = m({ api: "openai-completions", compat: { reasoningEffortMap: { xhigh: "high" } } });
    expect(thinkingRequest(mapped, "xhigh").providerOptions.openaiCompatible).toEqual({ reasoningEffort: "high" });
    expect(thinkingRequest(m({ api: "openai-responses" }), "xhigh").providerOptions).toEqual({ openai: { reasoningEffort: "xhigh", reasoningSummary: "auto" } });
  });

  it("maps Google budgets (< 3) and levels (3+)", () => {
    const g25 = m({ api: "google-generative-ai", id: "gemini-2.5-pro" });
    expect(thinkingRequest(g25, "high").providerOptions).toEqual({ google: { thinkingConfig: { thinkingBudget: 16384, includeThoughts: true } } });
    expect(thinkingRequest(g25, "off").providerOptions).toEqual({ google: { thinkingConfig: { thinkingBudget: 0, includeThoughts: false } } });
    const g3 = m({ api: "google-generative-ai", id: "gemini-3-pro-preview" });
    expect(thinkingRequest(g3, "xhigh").providerOptions.google).toEqual({ thinkingConfig: { thinkingLevel: "high", includeThoughts: true } });
    expect(thinkingRequest(g3, "minimal").providerOptions.google).toEqual({ thinkingConfig: { thinkingLevel: "minimal", includeThoughts: true } });
  });
});
