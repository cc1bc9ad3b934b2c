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

  it("prices 1-hour cache writes at their own price (default 2 × input)", () => {
    const model = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };
    const cost = computeCost(model, { input: 0, output: 0, cacheRead: 0, cacheWrite: 3_000_000, cacheWrite1h: 1_000_000 });
    expect(cost.cacheWrite).toBeCloseTo(2 * 3.75 + 6, 9);
    const own = computeCost({ cost: { ...model.cost, cacheWrite1h: 5 } }, { input: 0, output: 0, cacheRead: 0, cacheWrite: 1_000_000, cacheWrite1h: 1_000_000 });
    expect(own.cacheWrite).toBeCloseTo(5, 9);
    const u = usageWithCost(model, { input: 1, output: 1, cacheRead: 1, cacheWrite: 2, cacheWrite1h: 2 });
    expect(u.cacheWrite1h).toBe(2);
    expect(u.totalTokens).toBe(5);
    expect("cacheWrite1h" in usageWithCost(model, { input: 1, output: 1, cacheRead: 0, cacheWrite: 0 })).toBe(false);
  });
});
