// TypeBox schemas are plain JSON Schema objects; this widens their type to Tool["parameters"].
import type { TSchema } from "typebox";

export function jsonSchema(schema: TSchema): Record<string, unknown> {
  return schema as unknown as Record<string, unknown>;
}
