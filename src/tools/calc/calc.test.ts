import { describe, expect, it } from "vitest";
import { runTool } from "../run-tool.js";
import { makeCtx, textOf } from "../../../test/support/tools.js";
import { createCalcTool } from "./index.js";

const tool = createCalcTool();
const calc = (...expressions: string[]) => runTool(tool, { calculations: expressions.map((expression) => ({ expression, prefix: "", suffix: "" })) }, makeCtx("/"));

describe("calc", () => {
  it("answers each calculation with its prefix and suffix, one per line", async () => {
    const out = await runTool(tool, { calculations: [{ expression: "2 + 3 * 4", prefix: "x = ", suffix: " units" }, { expression: "(1 + 2) * 3", prefix: "", suffix: "" }] }, makeCtx("/"));
    expect(out.isError).toBe(false);
    expect(textOf(out.result)).toBe("x = 14 units\n9");
    expect(out.result.details).toEqual({ results: [{ expression: "2 + 3 * 4", value: "14", output: "x = 14 units" }, { expression: "(1 + 2) * 3", value: "9", output: "9" }] });
  });

  it("has the reference's syntax: % ** and 0x/0b/0o literals", async () => {
    expect(textOf((await calc("7 % 3", "2 ** 10", "-2 ** 2", "0xff + 0b101 + 0o17", "10 / 4", "2 ** 3 ** 2")).result)).toBe("1\n1024\n-4\n275\n2.5\n512");
  });

  it("adds mathjs units, functions and matrices", async () => {
    expect(textOf((await calc("5 cm to mm", "sqrt(16)", "[1, 2; 3, 4] * 2")).result)).toBe("50 mm\n4\n[[2, 4], [6, 8]]");
  });

  it("refuses empty, invalid, non-finite and escaping expressions", async () => {
    expect(textOf((await calc(" ")).result)).toBe("Expression is empty");
    expect(textOf((await calc("1 / 0")).result)).toBe("Expression result is not a finite number");
    expect((await calc("2 +")).isError).toBe(true);
    for (const bad of ['import({x: 1}, {})', 'evaluate("1+1")', 'createUnit("foo")', 'parse("1")']) {
      const out = await calc(bad);
      expect(out.isError, bad).toBe(true);
      expect(textOf(out.result)).toMatch(/disabled/);
    }
    expect(textOf((await calc('this.constructor.constructor("return process")()')).result)).toMatch(/^Cannot evaluate/);
  });

  it("an empty list is a warning", async () => {
    const out = await runTool(tool, { calculations: [] }, makeCtx("/"));
    expect(out.result).toMatchObject({ isWarning: true });
  });
});
