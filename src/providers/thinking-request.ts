// Maps a thinking level to provider request options: Anthropic budget tokens
// or adaptive effort, OpenAI reasoningEffort, Google thinkingConfig; adjusts max tokens for
// budget mode. The keys of `providerOptions` are the AI SDK provider-option namespaces.
import type { Effort, Model, ThinkingLevel } from "../shared/types.js";

export type ThinkingMode = NonNullable<Model["thinking"]>["mode"];

export interface ThinkingRequest {
  /** What to pass as `maxOutputTokens` to the AI SDK (Anthropic adds the budget on top itself). */
  maxOutputTokens: number;
  /** `max_tokens` as it will appear on the wire. */
  wireMaxTokens: number;
  /** Thinking budget in tokens when budget mode is in effect. */
  budgetTokens?: number;
  providerOptions: Record<string, Record<string, unknown>>;
}

/** The settings `thinkingBudgets.*` defaults the session always passes. */
export const THINKING_BUDGETS: Record<Effort, number> = {
  minimal: 1024,
  low: 2048,
  medium: 8192,
  high: 16384,
  xhigh: 32768,
};

/** min(model.maxTokens, 32000): the base output limit before thinking adjustments. */
export function defaultMaxTokens(model: Pick<Model, "maxTokens">): number {
  return Math.min(model.maxTokens, 32000);
}

/** The model's transport mode for thinking: declared on the model, else inferred from api and id. */
export function thinkingMode(model: Pick<Model, "api" | "id" | "thinking">): ThinkingMode {
  if (model.thinking) return model.thinking.mode;
  const id = model.id.toLowerCase();
  if (model.api === "anthropic-messages") {
    if (/(opus|sonnet|haiku)-(4[-.]([6-9]|\d\d)|[5-9])/.test(id)) return "anthropic-adaptive";
    if (/(opus|sonnet|haiku)-4[-.]5/.test(id)) return "anthropic-budget-effort";
    return "budget";
  }
  if (model.api === "google-generative-ai") return isGemini3(id) ? "google-level" : "budget";
  return "effort";
}

function isGemini3(id: string): boolean {
  return /gemini-([3-9]|\d\d)/.test(id);
}

/**
 * Request options for `level`. `undefined` means "provider default": nothing is sent.
 * Non-reasoning models never get reasoning parameters.
 */
export function thinkingRequest(model: Model, level: ThinkingLevel | undefined, baseMaxTokens = defaultMaxTokens(model)): ThinkingRequest {
  const plain: ThinkingRequest = { maxOutputTokens: baseMaxTokens, wireMaxTokens: baseMaxTokens, providerOptions: {} };
  if (level === undefined || !model.reasoning) return plain;
  switch (model.api) {
    case "anthropic-messages":
      return anthropicRequest(model, level, baseMaxTokens);
    case "google-generative-ai":
      return { ...plain, providerOptions: { google: { thinkingConfig: googleThinkingConfig(model, level) } } };
    case "openai-responses":
      if (level === "off") return plain;
      return { ...plain, providerOptions: { openai: { reasoningEffort: mapEffort(model, level), reasoningSummary: "auto" } } };
    default: {
      if (level === "off") return plain;
      const reasoningEffort = mapEffort(model, level);
      return { ...plain, providerOptions: { openai: { reasoningEffort }, openaiCompatible: { reasoningEffort } } };
    }
  }
}

function mapEffort(model: Model, level: Effort): string {
  const map = model.compat?.reasoningEffortMap;
  if (map && typeof map === "object") {
    const mapped = (map as Record<string, unknown>)[level];
    if (typeof mapped === "string") return mapped;
  }
  return level;
}

function anthropicRequest(model: Model, level: ThinkingLevel, base: number): ThinkingRequest {
  const plain: ThinkingRequest = { maxOutputTokens: base, wireMaxTokens: base, providerOptions: {} };
  if (level === "off") return { ...plain, providerOptions: { anthropic: { thinking: { type: "disabled" } } } };
  const mode = thinkingMode(model);
  if (mode === "anthropic-adaptive") {
    const effort = level === "xhigh" ? "max" : level === "minimal" ? "low" : level;
    return { ...plain, providerOptions: { anthropic: { thinking: { type: "adaptive", display: "summarized" }, effort } } };
  }
  const sized = budgetSizing(model, level, base);
  if (sized.budget <= 0) return { ...plain, wireMaxTokens: sized.maxTokens, maxOutputTokens: sized.maxTokens };
  const anthropic: Record<string, unknown> = { thinking: { type: "enabled", budgetTokens: sized.budget } };
  if (mode === "anthropic-budget-effort") anthropic.effort = level === "minimal" ? "low" : level === "xhigh" ? "high" : level;
  return {
    maxOutputTokens: sized.maxTokens - sized.budget,
    wireMaxTokens: sized.maxTokens,
    budgetTokens: sized.budget,
    providerOptions: { anthropic },
  };
}

/**
 * Budget-mode output sizing: maxTokens = min(base + budget, model.maxTokens); when that
 * leaves no room the budget shrinks to maxTokens − 1024; a budget ≤ 0 disables thinking.
 */
export function budgetSizing(model: Pick<Model, "maxTokens">, level: Effort, base: number): { maxTokens: number; budget: number } {
  let budget = THINKING_BUDGETS[level];
  const maxTokens = Math.min(base + budget, model.maxTokens);
  if (maxTokens <= budget) budget = maxTokens - 1024;
  return { maxTokens, budget: Math.max(budget, 0) };
}

function googleThinkingConfig(model: Model, level: ThinkingLevel): Record<string, unknown> {
  const id = model.id.toLowerCase();
  if (thinkingMode(model) === "google-level") {
    if (level === "off") return { thinkingLevel: /pro/.test(id) ? "low" : "minimal", includeThoughts: false };
    return { thinkingLevel: level === "xhigh" ? "high" : level, includeThoughts: true };
  }
  if (level === "off") return { thinkingBudget: 0, includeThoughts: false };
  return { thinkingBudget: THINKING_BUDGETS[level], includeThoughts: true };
}
