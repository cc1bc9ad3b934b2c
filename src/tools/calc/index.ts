// `calc` (the reference's calculator): a list of expressions, each answered with its prefix and
// suffix. mathjs evaluates them (units, matrices, functions besides the reference's syntax) in a
// sandboxed instance; it is loaded on the first call.
import { Type, type Static } from "typebox";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";

const DESCRIPTION = `Performs calculations.
- Supports +, -, *, /, %, ** and parentheses
- Supports decimal, hex (0x), binary (0b), and octal (0o) literals
- Also: functions (sqrt, sin, log, ...), units ("5 cm to inch") and matrices
Returns each calculation result with its prefix and suffix applied, one per line.`;

const Params = Type.Object({
  calculations: Type.Array(
    Type.Object({
      expression: Type.String({ description: "Math expression to evaluate" }),
      prefix: Type.String({ description: "Text to prepend to the result" }),
      suffix: Type.String({ description: "Text to append to the result" }),
    }),
    { description: "List of calculations to evaluate" },
  ),
});
export type CalcArgs = Static<typeof Params>;

export function createCalcTool(): Tool<CalcArgs> {
  return {
    name: "calc",
    summary: "Evaluate arithmetic expressions",
    label: "Calc",
    description: DESCRIPTION,
    parameters: jsonSchema(Params),
    // mathjs in a sandboxed instance inside pith: computes, touches nothing
    effect: "read-only",
    concurrency: "shared",
    source: "builtin",
    async execute(args) {
      const { evaluateExpression } = await import("./evaluate.js");
      const results = [];
      for (const c of args.calculations) {
        const value = await evaluateExpression(c.expression);
        results.push({ expression: c.expression, value, output: `${c.prefix}${value}${c.suffix}` });
      }
      return {
        content: [{ type: "text", text: results.map((r) => r.output).join("\n") }],
        details: { results },
        ...(results.length === 0 ? { isWarning: true } : {}),
      };
    },
  };
}
