// Argument validation against a tool's JSON Schema (compiled once per schema object), with
// light coercion of stringified numbers, booleans and JSON values first.
import { compiled } from "../shared/schema/compiled.js";

type Schema = Record<string, unknown>;

export type ValidationOutcome = { ok: true; value: unknown } | { ok: false; errors: string[] };

/** Coerces then validates; on failure returns one `<path>: <message>` line per problem. */
export function validateArgs(schema: Schema, args: unknown): ValidationOutcome {
  const value = coerce(schema, args ?? {});
  const v = compiled(schema);
  if (v.Check(value)) return { ok: true, value };
  const lines: string[] = [];
  for (const e of v.Errors(value) as Iterable<{ keyword: string; instancePath: string; message: string; params?: Record<string, unknown> }>) {
    if (e.keyword === "boolean") continue; // "schema is false": restated by additionalProperties
    lines.push(formatError(e));
  }
  return { ok: false, errors: [...new Set(lines.length ? lines : ["root: invalid arguments"])] };
}

function formatError(e: { keyword: string; instancePath: string; message: string; params?: Record<string, unknown> }): string {
  const base = e.instancePath.replace(/^\//, "").replace(/\//g, ".");
  const params = e.params ?? {};
  if (e.keyword === "required" && Array.isArray(params.requiredProperties)) {
    const names = params.requiredProperties as string[];
    return names.map((n) => `${base ? `${base}.` : ""}${n}: must have required property '${n}'`).join("\n  - ");
  }
  if (e.keyword === "additionalProperties" && Array.isArray(params.additionalProperties)) {
    const names = params.additionalProperties as string[];
    return `${base || "root"}: must not have additional properties (${names.join(", ")})`;
  }
  return `${base || "root"}: ${e.message}`;
}

/** The full error text returned to the model. */
export function validationErrorText(toolName: string, errors: string[], args: unknown): string {
  let pretty: string;
  try {
    pretty = JSON.stringify(args, null, 2) ?? String(args);
  } catch (err) {
    pretty = `[unserialisable arguments: ${err instanceof Error ? err.message : String(err)}]`;
  }
  return `Validation failed for tool "${toolName}":\n${errors.map((e) => `  - ${e}`).join("\n")}\n\nReceived arguments:\n${pretty}`;
}

function typesOf(schema: Schema): string[] {
  const t = schema.type;
  if (typeof t === "string") return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === "string");
  return [];
}

/** Returns a coerced copy of `value`; never mutates the input. */
export function coerce(schema: Schema, value: unknown): unknown {
  if (!schema || typeof schema !== "object") return value;
  const types = typesOf(schema);
  if (typeof value === "string" && types.length > 0 && !types.includes("string")) {
    value = coerceString(value, types);
  }
  if (Array.isArray(schema.anyOf) && !types.length) return coerceAnyOf(schema.anyOf as Schema[], value);
  if (Array.isArray(value) && schema.items && typeof schema.items === "object") {
    return value.map((v) => coerce(schema.items as Schema, v));
  }
  if (value && typeof value === "object" && !Array.isArray(value) && schema.properties) {
    const props = schema.properties as Record<string, Schema>;
    const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    for (const [k, sub] of Object.entries(props)) if (k in out) out[k] = coerce(sub, out[k]);
    return out;
  }
  return value;
}

function coerceAnyOf(options: Schema[], value: unknown): unknown {
  for (const opt of options) {
    const c = coerce(opt, value);
    if (compiled(opt).Check(c)) return c;
  }
  return value;
}

function coerceString(value: string, types: string[]): unknown {
  const s = value.trim();
  if ((types.includes("number") || types.includes("integer")) && s !== "" && !Number.isNaN(Number(s))) return Number(s);
  if (types.includes("boolean") && (s === "true" || s === "false")) return s === "true";
  if (types.includes("null") && s === "null") return null;
  if ((types.includes("object") && s.startsWith("{")) || (types.includes("array") && s.startsWith("["))) {
    try {
      return JSON.parse(s) as unknown;
    } catch {
      return value; // not JSON after all: let the schema check report it
    }
  }
  return value;
}
