// Usage → cost: USD = tokens × price per million / 1e6, per part and in total.
import type { Cost, Model, Usage } from "../shared/types.js";

export type TokenCounts = Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite" | "cacheWrite1h">;

/** Anthropic bills 1-hour cache writes at twice the base input price. */
const LONG_WRITE_FACTOR = 2;

export function computeCost(model: Pick<Model, "cost">, usage: TokenCounts): Cost {
  const price = model.cost;
  const input = (usage.input * price.input) / 1e6;
  const output = (usage.output * price.output) / 1e6;
  const cacheRead = (usage.cacheRead * price.cacheRead) / 1e6;
  // cacheWrite counts every write; the 1-hour part of it has its own price.
  const long = Math.min(usage.cacheWrite1h ?? 0, usage.cacheWrite);
  const longPrice = price.cacheWrite1h ?? price.input * LONG_WRITE_FACTOR;
  const cacheWrite = ((usage.cacheWrite - long) * price.cacheWrite + long * longPrice) / 1e6;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}

/** A full Usage (with totalTokens and cost) from token counts. */
export function usageWithCost(model: Pick<Model, "cost">, counts: TokenCounts): Usage {
  const { cacheWrite1h, ...rest } = counts;
  return {
    ...rest,
    ...(cacheWrite1h ? { cacheWrite1h } : {}),
    totalTokens: counts.input + counts.output + counts.cacheRead + counts.cacheWrite,
    cost: computeCost(model, counts),
  };
}
