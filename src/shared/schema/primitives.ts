// Building blocks of the wire schemas: closed string sets and open records.
import Type from "typebox";

/** A closed set of strings: `{"enum": [...]}` in JSON Schema, a literal union in TS. */
export function literals<const T extends string[]>(values: readonly [...T]) {
  return Type.Enum([...values] as [...T]);
}

/** Any JSON object: `Record<string, unknown>`. */
export const RecordSchema = Type.Record(Type.String(), Type.Unknown());
