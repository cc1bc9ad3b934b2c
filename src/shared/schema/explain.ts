// The one reading of a schema failure for people: the first error of TypeBox's own error list
// (the compiled validator's `Errors`), as the key path of the bad value (`args[1]`, `env.A`) and
// what was expected there. A schema node says what it expects with an `expected` annotation
// ("a non-empty string"); a node without one is described by its JSON Schema keywords.
import { compiled, type SchemaObject } from "./compiled.js";

type Node = Record<string, unknown>;

export type SchemaProblem =
  /** The value at `path` is not what the schema there accepts. */
  | { path: string; expected: string; missing?: undefined; said?: undefined }
  /** The object at the parent of `path` lacks the required key ending `path`. */
  | { path: string; missing: true; expected?: undefined; said?: undefined }
  /** A refinement (`Type.Refine`) at `path` refused the value and said why (naming the key itself). */
  | { path: string; said: string; expected?: undefined; missing?: undefined };

export interface SchemaReport {
  /** Key paths of keys an object schema with `additionalProperties: false` does not list. */
  unknown: string[];
  /** The first other problem. */
  problem?: SchemaProblem;
}

/** The first problem of `value` against `schema` (unknown keys included), or undefined when it matches. */
export function schemaProblem(schema: SchemaObject, value: unknown): SchemaProblem | undefined {
  const report = schemaReport(schema, value);
  return report.problem ?? (report.unknown.length > 0 ? { path: report.unknown[0], expected: "no such key" } : undefined);
}

/** Every unknown key of `value` and its first other problem against `schema`. */
export function schemaReport(schema: SchemaObject, value: unknown): SchemaReport {
  const validator = compiled(schema);
  const report: SchemaReport = { unknown: [] };
  if (validator.Check(value)) return report;
  for (const error of validator.Errors(value)) {
    const keys = pointerKeys(error.instancePath);
    if (error.keyword === "additionalProperties") {
      for (const key of (error.params as { additionalProperties: string[] }).additionalProperties) report.unknown.push(keyPath([...keys, key]));
    } else if (error.keyword === "boolean" && error.schemaPath.endsWith("/additionalProperties")) {
      // the same unknown key, reported once more as "schema is false"
    } else if (!report.problem) {
      report.problem = problemOf(schema as Node, error, keys);
    }
  }
  if (!report.problem && report.unknown.length === 0) report.problem = { path: "", expected: describe(schema as Node) };
  return report;
}

function problemOf(schema: Node, error: { keyword: string; schemaPath: string; params: object; message: string }, keys: Array<string | number>): SchemaProblem {
  if (error.keyword === "required") {
    const missing = (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? "";
    return { path: keyPath([...keys, missing]), missing: true };
  }
  if (error.keyword === "~refine") return { path: keyPath(keys), said: error.message };
  const at = expectationAt(schema, error.schemaPath);
  // a node that says what it expects is reported at its own key (an array of strings, not its item)
  return { path: keyPath(at.depth === undefined ? keys : keys.slice(0, at.depth)), expected: at.expected };
}

/** `a.b[2].c` from object keys and array indexes. */
export function keyPath(keys: ReadonlyArray<string | number>): string {
  let out = "";
  for (const key of keys) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? key : `.${key}`;
  }
  return out;
}

function pointerKeys(pointer: string): Array<string | number> {
  if (pointer === "") return [];
  return pointer
    .slice(1)
    .split("/")
    .map((raw) => {
      const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
      return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
    });
}

/** Schema path steps that descend one key or index of the value. */
const KEYED = new Set(["properties", "patternProperties", "prefixItems"]);

/**
 * What the schema expects at a `#/a/b` schema path: the deepest node on it with an `expected`
 * annotation and how many value keys lie above that node (the problem is reported at that key),
 * else the words for the last node (reported at the bad value itself).
 */
function expectationAt(root: Node, schemaPath: string): { expected: string; depth?: number } {
  let node = root;
  let depth = 0;
  let found: { expected: string; depth?: number } | undefined = typeof root.expected === "string" ? { expected: root.expected, depth: 0 } : undefined;
  const steps = schemaPath.replace(/^#\/?/, "").split("/").filter(Boolean);
  for (let i = 0; i < steps.length; i++) {
    const key = steps[i].replace(/~1/g, "/").replace(/~0/g, "~");
    const next = node[key];
    if (typeof next !== "object" || next === null) break;
    if (KEYED.has(key) && i + 1 < steps.length) {
      const child = (next as Node)[steps[i + 1].replace(/~1/g, "/").replace(/~0/g, "~")];
      if (typeof child !== "object" || child === null) break;
      node = child as Node;
      i++;
      depth++;
    } else {
      node = next as Node;
      if (key === "items" || key === "additionalProperties") depth++;
    }
    if (typeof node.expected === "string") found = { expected: node.expected, depth };
  }
  return found ?? { expected: describe(node) };
}

const ARTICLE: Record<string, string> = { string: "a string", number: "a number", integer: "an integer", boolean: "true or false", object: "an object", array: "an array", null: "null" };

/** What a schema node accepts, in words. */
export function describe(node: Node): string {
  if (typeof node.expected === "string") return node.expected;
  if ("const" in node) return JSON.stringify(node.const);
  if (Array.isArray(node.enum)) return `one of ${node.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if (Array.isArray(node.anyOf)) return [...new Set((node.anyOf as Node[]).map(describe))].join(" or ");
  if (node.type === "array" && typeof node.items === "object" && node.items !== null) return `an array of ${plural(describe(node.items as Node))}`;
  if (typeof node.type === "string") return ARTICLE[node.type] ?? node.type;
  return "a valid value";
}

function plural(one: string): string {
  return one.replace(/^an? (\w+)/, "$1s");
}
