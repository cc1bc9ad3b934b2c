// Explains why a value does not match a JSON Schema, naming the first bad field:
// `Invalid "images[0].mimeType": expected string`. Covers the subset our TypeBox schemas use.

type Schema = Record<string, unknown>;

interface Mismatch {
  path: string;
  expected: string;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "null":
      return value === null;
    case "object":
      return isRecord(value);
    case "array":
      return Array.isArray(value);
    case "undefined":
      return value === undefined;
    default:
      return true;
  }
}

/** A short human description of what a schema accepts. */
export function describeSchema(schema: Schema): string {
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`;
  if (Array.isArray(schema.anyOf)) {
    const parts = [...new Set((schema.anyOf as Schema[]).map(describeSchema))];
    return parts.join(" or ");
  }
  const props = schema.properties as Record<string, Schema> | undefined;
  const tag = props?.type ?? props?.role;
  if (schema.type === "object" && tag && "const" in tag) return `${JSON.stringify(tag.const)} object`;
  if (schema.type === "array" && isRecord(schema.items)) {
    const item = describeSchema(schema.items);
    return item === "valid value" ? "array" : `array of ${item}`;
  }
  if (typeof schema.type === "string") return schema.type;
  return "valid value";
}

function join(path: string, key: string | number): string {
  if (typeof key === "number") return `${path}[${key}]`;
  return path === "" ? key : `${path}.${key}`;
}

function unionBranch(branches: Schema[], value: unknown): Schema | undefined {
  if (!isRecord(value)) return undefined;
  for (const tagKey of ["type", "role", "method"]) {
    const branch = branches.find((b) => {
      const tag = (b.properties as Record<string, Schema> | undefined)?.[tagKey];
      return tag !== undefined && "const" in tag && tag.const === value[tagKey];
    });
    if (branch) return branch;
  }
  return undefined;
}

function objectMismatch(schema: Schema, value: Record<string, unknown>, path: string): Mismatch | undefined {
  const props = (schema.properties ?? {}) as Record<string, Schema>;
  const required = new Set((schema.required ?? []) as string[]);
  for (const [key, sub] of Object.entries(props)) {
    if (!(key in value) || value[key] === undefined) {
      if (required.has(key)) return { path: join(path, key), expected: describeSchema(sub) };
      continue;
    }
    const found = find(sub, value[key], join(path, key));
    if (found) return found;
  }
  const patterns = schema.patternProperties as Record<string, Schema> | undefined;
  if (patterns) {
    for (const [pattern, sub] of Object.entries(patterns)) {
      const re = new RegExp(pattern);
      for (const [key, item] of Object.entries(value)) {
        if (!re.test(key) || key in props) continue;
        const found = find(sub, item, join(path, key));
        if (found) return found;
      }
    }
  }
  return undefined;
}

function find(schema: Schema, value: unknown, path: string): Mismatch | undefined {
  const here = { path, expected: describeSchema(schema) };
  if ("const" in schema) return schema.const === value ? undefined : here;
  if (Array.isArray(schema.enum)) return schema.enum.includes(value) ? undefined : here;
  if (Array.isArray(schema.anyOf)) {
    const branches = schema.anyOf as Schema[];
    const failures = branches.map((b) => find(b, value, path));
    if (failures.some((f) => f === undefined)) return undefined;
    const branch = unionBranch(branches, value);
    return branch ? find(branch, value, path) : here;
  }
  if (typeof schema.type === "string" && !matchesType(schema.type, value)) return here;
  if (schema.type === "object" && isRecord(value)) return objectMismatch(schema, value, path);
  if (schema.type === "array" && Array.isArray(value) && isRecord(schema.items)) {
    for (let i = 0; i < value.length; i++) {
      const found = find(schema.items, value[i], join(path, i));
      if (found) return found;
    }
  }
  return undefined;
}

/** `Invalid "<field>": expected <what>` for the first mismatch, or undefined when none is found. */
export function describeMismatch(schema: unknown, value: unknown): string | undefined {
  if (!isRecord(schema)) return undefined;
  const found = find(schema, value, "");
  if (!found) return undefined;
  return found.path === "" ? `Invalid frame: expected ${found.expected}` : `Invalid "${found.path}": expected ${found.expected}`;
}
