// One calc expression evaluated by mathjs, in an instance whose functions that could reach
// beyond arithmetic (import, createUnit, evaluate/parse from inside an expression) are removed.
import { all, create, type MathJsInstance } from "mathjs";

let instance: { evaluate: (expr: string) => unknown; format: MathJsInstance["format"] } | undefined;

function math(): NonNullable<typeof instance> {
  if (instance) return instance;
  const m = create(all, { number: "number" });
  const { evaluate, format } = m;
  const refuse = (name: string) => () => {
    throw new Error(`Function ${name} is disabled`);
  };
  m.import(
    Object.fromEntries(["import", "createUnit", "evaluate", "parse", "compile", "simplify", "derivative", "resolve", "reviver"].map((n) => [n, refuse(n)])),
    { override: true },
  );
  instance = { evaluate, format };
  return instance;
}

/** The result as text: a plain number as JavaScript prints it, anything else (units, matrices) as mathjs formats it. */
export async function evaluateExpression(expression: string): Promise<string> {
  if (expression.trim() === "") throw new Error("Expression is empty");
  // the reference's `**` is mathjs's `^` (both bind tighter than unary minus, right to left)
  const source = expression.replace(/\*\*/g, "^");
  let value: unknown;
  try {
    value = math().evaluate(source);
  } catch (err) {
    throw new Error(`Cannot evaluate "${expression}": ${(err as Error).message}`);
  }
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error("Expression result is not a finite number");
    return String(Object.is(value, -0) ? 0 : value);
  }
  if (typeof value === "function" || value === undefined) throw new Error(`Expression "${expression}" does not produce a value`);
  return math().format(value, { precision: 14 });
}
