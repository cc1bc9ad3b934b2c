// The one reading of a schema failure for people: the first error of TypeBox's own error list
// (the compiled validator's `Errors`), as the key path of the bad value (`args[1]`, `env.A`) and
// what was expected there. A schema node says what it expects with an `expected` annotation
// ("a non-empty string"); a node without one is described by its JSON Schema keywords.
import { compiled, type SchemaObject } from "./compiled.js";

type Node = Record<string, unknown>;

export type SchemaProblem =
  /** The value at `path` is not what the schema there accepts. */
  | { path: string; expected: string; missing?: undefined }
  /** The object at the parent of `path` lacks the required key ending `path`. */
  | { path: string; missing: true; expected?: undefined };

/** The first problem of `value` against `schema`, or undefined when it matches. */
export function schemaProblem(schema: SchemaObject, value: unknown): SchemaProblem | undefined {
  const validator = compiled(schema);
  if (validator.Check(value)) return undefined;
  const [error] = validator.Errors(value);
  if (!error) return { path: "", expected: describe(schema as Node) };
  const keys = pointerKeys(error.instancePath);
  if (error.keyword === "required") {
    const missing = (error.params as { requiredProperties?: string[] }).requiredProperties?.[0] ?? "";
    return { path: keyPath([...keys, missing]), missing: true };
  }
  return { path: keyPath(keys), expected: describe(nodeAt(schema as Node, error.schemaPath)) };
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

/** The schema node a `#/a/b` schema path names (the root when a step is missing). */
function nodeAt(root: Node, schemaPath: string): Node {
  let node: unknown = root;
  for (const raw of schemaPath.replace(/^#\/?/, "").split("/").filter(Boolean)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    const next = (node as Node | undefined)?.[key];
    if (typeof next !== "object" || next === null) break;
    node = next;
  }
  return node as Node;
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
