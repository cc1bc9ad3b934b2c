import { describe, expect, it } from "vitest";
import { computeCost, usageWithCost } from "./cost.js";

describe("computeCost", () => {
  it("prices each part per million tokens and sums them", () => {
    const model = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    const cost = computeCost(model, { input: 1520, output: 88, cacheRead: 10240, cacheWrite: 0 });
    expect(cost.input).toBeCloseTo(0.00456, 12);
    expect(cost.output).toBeCloseTo(0.00132, 12);
    expect(cost.cacheRead).toBeCloseTo(0.003072, 12);
    expect(cost.cacheWrite).toBe(0);
    expect(cost.total).toBeCloseTo(0.008952, 12);
  });

  it("builds a full usage with totalTokens", () => {
    const u = usageWithCost({ cost: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } }, { input: 1, output: 2, cacheRead: 3, cacheWrite: 4 });
    expect(u.totalTokens).toBe(10);
    expect(u.cost.total).toBeCloseTo(10 / 1e6, 15);
  });
});
