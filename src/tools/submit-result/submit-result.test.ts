import fc from "fast-check";
import { describe, expect, it } from "vitest";
import Ajv2020Module from "ajv/dist/2020.js";
import { compileOutputSchema, createSubmitResultTool, OutputSchemaError, type SubmittedResult } from "./index.js";

const ctx = {} as never;

async function submit(schema: unknown, result: unknown): Promise<{ ok: boolean; text: string; submitted?: SubmittedResult }> {
  const spec = await compileOutputSchema(schema);
  let submitted: SubmittedResult | undefined;
  const tool = createSubmitResultTool(spec, (r) => (submitted = r));
  try {
    const out = await tool.execute({ result }, ctx);
    return { ok: true, text: JSON.stringify(out.content), submitted };
  } catch (err) {
    return { ok: false, text: (err as Error).message };
  }
}

describe("submit_result", () => {
  it("lists each violation with its path", async () => {
    const schema = { type: "object", properties: { items: { type: "array", items: { type: "object", properties: { n: { type: "integer" } } } } }, required: ["items", "title"] };
    const r = await submit(schema, { data: { items: [{ n: 1 }, { n: "x" }] } });
    expect(r.ok).toBe(false);
    expect(r.text).toContain("result.data.items[1].n: must be integer");
    expect(r.text).toContain("result.data: must have required property 'title'");
  });

  it("accepts {error} and refuses shapes that are neither", async () => {
    expect((await submit({ type: "object" }, { error: "blocked" })).submitted).toEqual({ error: "blocked" });
    expect((await submit({ type: "object" }, { data: {}, error: "x" })).text).toContain("both");
    expect((await submit({ type: "object" }, "x")).ok).toBe(false);
    expect((await submit({ type: "object" }, {})).ok).toBe(false);
  });

  it("checks formats and honours draft-07 schemas", async () => {
    expect((await submit({ type: "string", format: "email" }, { data: "not-an-email" })).text).toContain("must match format");
    const d7 = { $schema: "http://json-schema.org/draft-07/schema#", type: "array", items: [{ type: "string" }], additionalItems: false };
    expect((await submit(d7, { data: ["a"] })).ok).toBe(true);
    expect((await submit(d7, { data: ["a", 1] })).ok).toBe(false);
  });

  it("refuses unusable schemas with clear errors", async () => {
    await expect(compileOutputSchema([1])).rejects.toThrow(OutputSchemaError);
    await expect(compileOutputSchema({ type: "nope" })).rejects.toThrow(/not a valid JSON Schema/);
    await expect(compileOutputSchema({ description: "x".repeat(70_000) })).rejects.toThrow(/too large/);
  });

  // For generated schemas and values, the tool accepts exactly what the validator accepts.
  it("accepts exactly what ajv accepts (property)", async () => {
    const Ajv2020 = ((Ajv2020Module as { default?: unknown }).default ?? Ajv2020Module) as unknown as new (o: object) => { validate(s: object, v: unknown): boolean };
    const reference = new Ajv2020({ strict: false });
    const leaf = fc.oneof(
      fc.constantFrom({ type: "string" }, { type: "integer" }, { type: "number" }, { type: "boolean" }, { type: "null" }, {}),
      fc.record({ type: fc.constant("integer"), minimum: fc.integer({ min: -5, max: 5 }) }),
      fc.record({ type: fc.constant("string"), maxLength: fc.integer({ min: 0, max: 4 }) }),
      fc.record({ enum: fc.array(fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom("a", "b")), { minLength: 1, maxLength: 3 }) }),
    );
    const { schema } = fc.letrec((tie) => ({
      schema: fc.oneof({ depthSize: "small", withCrossShrink: true }, leaf, tie("object"), tie("array")),
      object: fc
        .dictionary(fc.constantFrom("a", "b", "c"), tie("schema"), { maxKeys: 3 })
        .chain((properties) =>
          fc.record({
            type: fc.constant("object"),
            properties: fc.constant(properties),
            required: fc.subarray(Object.keys(properties)),
            additionalProperties: fc.boolean(),
          }),
        ),
      array: fc.record({ type: fc.constant("array"), items: tie("schema"), maxItems: fc.integer({ min: 0, max: 3 }) }),
    }));
    const value = fc.letrec((tie) => ({
      v: fc.oneof({ depthSize: "small" }, fc.integer({ min: -6, max: 6 }), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constantFrom("a", "b", "", "abcdef", true, false, null), tie("o"), tie("arr")),
      o: fc.dictionary(fc.constantFrom("a", "b", "c", "d"), tie("v"), { maxKeys: 4 }),
      arr: fc.array(tie("v"), { maxLength: 4 }),
    })).v;
    await fc.assert(
      fc.asyncProperty(schema, value, async (s, v) => {
        const expected = reference.validate(s as object, v);
        const got = await submit(s, { data: v });
        expect(got.ok).toBe(expected);
        if (expected) expect(got.submitted).toEqual({ data: v });
      }),
      { numRuns: 300 },
    );
  });
});
