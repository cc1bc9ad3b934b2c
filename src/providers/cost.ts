// Usage → cost: USD = tokens × price per million / 1e6, per part and in total.
import type { Cost, Model, Usage } from "../shared/types.js";

export type TokenCounts = Pick<Usage, "input" | "output" | "cacheRead" | "cacheWrite">;

export function computeCost(model: Pick<Model, "cost">, usage: TokenCounts): Cost {
  const price = model.cost;
  const input = (usage.input * price.input) / 1e6;
  const output = (usage.output * price.output) / 1e6;
  const cacheRead = (usage.cacheRead * price.cacheRead) / 1e6;
  const cacheWrite = (usage.cacheWrite * price.cacheWrite) / 1e6;
  return { input, output, cacheRead, cacheWrite, total: input + output + cacheRead + cacheWrite };
}

/** A full Usage (with totalTokens and cost) from token counts. */
export function usageWithCost(model: Pick<Model, "cost">, counts: TokenCounts): Usage {
  return {
    ...counts,
    totalTokens: counts.input + counts.output + counts.cacheRead + counts.cacheWrite,
    cost: computeCost(model, counts),
  };
}
