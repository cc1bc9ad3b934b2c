// The building blocks of the settings schemas (TypeBox): every key optional, every object closed
// (a key it does not list is reported as unknown, which warns), and each leaf saying in words
// what it expects, so an invalid value is reported as "expected <that>".
import { Type, type TProperties, type TSchema } from "typebox";

/** An object of settings: each key optional; keys it does not list are unknown. */
export function section(properties: TProperties) {
  const optional = Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, Type.Optional(schema)]));
  return Type.Object(optional, { additionalProperties: false });
}

export const str = () => Type.String({ expected: "a string" });
export const bool = () => Type.Boolean({ expected: "true or false" });
export const num = () => Type.Number({ expected: "a number" });
export const count = () => Type.Integer({ minimum: 0, expected: "a non-negative integer" });
export const positive = () => Type.Number({ exclusiveMinimum: 0, expected: "a positive number" });
export const positiveMs = () => Type.Integer({ exclusiveMinimum: 0, expected: "a positive integer (milliseconds)" });
export const strings = () => Type.Array(Type.String(), { expected: "an array of strings" });
export const stringMap = () => Type.Record(Type.String(), Type.String(), { expected: "an object of strings" });
export const oneOf = (values: readonly string[]) => Type.Union(values.map((v) => Type.Literal(v)), { expected: `one of ${values.map((v) => `"${v}"`).join(", ")}` });

/** A key of pi's settings that pith has no use for: accepted silently, kept nowhere. */
export const piOnly = (): TSchema => Type.Unknown({ piOnly: true });

/**
 * A value whose own check says what is wrong (naming the key): `problem` returns undefined for a
 * good value, else the sentence.
 */
export function explained(schema: TSchema, problem: (value: unknown) => string | undefined) {
  return Type.Refine(schema, (v: unknown) => problem(v) === undefined, (v: unknown) => problem(v) ?? "invalid");
}
