// A host's output schema, checked and compiled with ajv (draft 2020-12 unless the schema names
// draft-07 or earlier in `$schema`; formats from ajv-formats). ajv loads on first use only.
import { errorMessage } from "../../shared/errors.js";

export const MAX_OUTPUT_SCHEMA_BYTES = 64 * 1024;

/** A compiled output schema: what `submit_result` validates `data` against. */
export interface OutputSpec {
  schema: Record<string, unknown> | boolean;
  /** Violations as `result.data.<path>: <message>` lines; empty when the value matches. */
  check(value: unknown): string[];
}

export class OutputSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OutputSchemaError";
  }
}

interface AjvError {
  instancePath: string;
  message?: string;
  keyword: string;
  params?: Record<string, unknown>;
}
interface AjvLike {
  compile(schema: unknown): ((v: unknown) => boolean) & { errors?: AjvError[] | null };
}

let validators: Promise<{ draft7: AjvLike; draft2020: AjvLike }> | undefined;

async function loadValidators(): Promise<{ draft7: AjvLike; draft2020: AjvLike }> {
  const [draft7Module, draft2020Module, formatsModule] = await Promise.all([import("ajv"), import("ajv/dist/2020.js"), import("ajv-formats")]);
  // CommonJS packages: the class (and the plugin) is the default export or the module itself.
  type Ctor = new (opts: object) => AjvLike;
  const Ajv = ((draft7Module as { default?: unknown }).default ?? draft7Module) as unknown as Ctor;
  const Ajv2020 = ((draft2020Module as { default?: unknown }).default ?? draft2020Module) as unknown as Ctor;
  const addFormats = ((formatsModule as { default?: unknown }).default ?? formatsModule) as unknown as (ajv: AjvLike) => void;
  const opts = { allErrors: true, strict: false, validateFormats: true };
  const draft7 = new Ajv(opts);
  const draft2020 = new Ajv2020(opts);
  addFormats(draft7);
  addFormats(draft2020);
  return { draft7, draft2020 };
}

function isOlderDraft(schema: Record<string, unknown>): boolean {
  const s = schema.$schema;
  return typeof s === "string" && /draft-0[4-7]/.test(s);
}

/** `result.data.items[2].name`-style path of an ajv error. */
function fieldPath(e: AjvError): string {
  const parts = e.instancePath
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  let out = "result.data";
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : `.${p}`;
  return out;
}

function describe(e: AjvError): string {
  if (e.keyword === "additionalProperties" && typeof e.params?.additionalProperty === "string") return `must not have property '${e.params.additionalProperty}'`;
  return e.message ?? "is invalid";
}

/** Checks and compiles a schema; throws OutputSchemaError with a clear message when it cannot be used. */
export async function compileOutputSchema(schema: unknown): Promise<OutputSpec> {
  if (typeof schema !== "boolean" && (schema === null || typeof schema !== "object" || Array.isArray(schema))) {
    throw new OutputSchemaError("outputSchema must be a JSON Schema object");
  }
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(schema), "utf8");
  } catch (err) {
    throw new OutputSchemaError(`outputSchema cannot be serialised: ${errorMessage(err)}`);
  }
  if (size > MAX_OUTPUT_SCHEMA_BYTES) throw new OutputSchemaError(`outputSchema is too large: ${size} bytes (the limit is ${MAX_OUTPUT_SCHEMA_BYTES})`);
  validators ??= loadValidators();
  const v = await validators;
  const ajv = typeof schema === "object" && isOlderDraft(schema as Record<string, unknown>) ? v.draft7 : v.draft2020;
  let validate: ReturnType<AjvLike["compile"]>;
  try {
    validate = ajv.compile(schema);
  } catch (err) {
    throw new OutputSchemaError(`outputSchema is not a valid JSON Schema: ${errorMessage(err)}`);
  }
  return {
    schema: schema as Record<string, unknown> | boolean,
    check(value) {
      if (validate(value)) return [];
      const lines = (validate.errors ?? []).map((e) => `${fieldPath(e)}: ${describe(e)}`);
      return lines.length > 0 ? [...new Set(lines)] : ["result.data: does not match the schema"];
    },
  };
}
