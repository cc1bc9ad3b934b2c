// The one way pith checks a value against a schema: TypeBox's compiled validator, built once per
// schema object on first use and kept as long as the schema lives. Wire frames (src/protocol)
// and tool arguments (src/tools) both go through here.
import { Compile, type Validator } from "typebox/compile";

/** A TypeBox schema or any JSON Schema object (tool parameters from hosts, extensions, MCP). */
export type SchemaObject = object;

const cache = new WeakMap<SchemaObject, Validator>();

/** The compiled validator of `schema`, compiled on the first call only. */
export function compiled(schema: SchemaObject): Validator {
  let validator = cache.get(schema);
  if (!validator) {
    validator = Compile(schema);
    cache.set(schema, validator);
  }
  return validator;
}
