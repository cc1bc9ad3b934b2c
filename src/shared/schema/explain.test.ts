import { Type } from "typebox";
import { describe as suite, expect, it } from "vitest";
import { describe, keyPath, schemaProblem, schemaReport } from "./explain.js";

const Schema = Type.Object({
  name: Type.String({ pattern: "\\S", expected: "a non-empty string" }),
  tags: Type.Optional(Type.Array(Type.String())),
  env: Type.Optional(Type.Record(Type.String(), Type.String({ expected: "a string" }))),
  "a/b": Type.Optional(Type.Boolean()),
  level: Type.Optional(Type.Union([Type.Literal("low"), Type.Literal("high")])),
});

suite("schemaProblem", () => {
  it("is undefined for a matching value", () => {
    expect(schemaProblem(Schema, { name: "x", tags: ["a"], env: { A: "1" } })).toBeUndefined();
  });

  it("names the key path of the first bad value and what the schema expects there", () => {
    expect(schemaProblem(Schema, {})).toEqual({ path: "name", missing: true });
    expect(schemaProblem(Schema, { name: " " })).toEqual({ path: "name", expected: "a non-empty string" });
    expect(schemaProblem(Schema, { name: "x", tags: ["a", 2] })).toEqual({ path: "tags[1]", expected: "a string" });
    expect(schemaProblem(Schema, { name: "x", tags: "a" })).toEqual({ path: "tags", expected: "an array of strings" });
    expect(schemaProblem(Schema, { name: "x", env: { A: 1 } })).toEqual({ path: "env.A", expected: "a string" });
    expect(schemaProblem(Schema, { name: "x", "a/b": 1 })).toEqual({ path: "a/b", expected: "true or false" });
    expect(schemaProblem(Schema, { name: "x", level: "mid" })?.path).toBe("level");
    expect(schemaProblem(Schema, 5)).toEqual({ path: "", expected: "an object" });
  });
});

suite("describe and keyPath", () => {
  it("words a schema node and joins keys and indexes", () => {
    expect(describe({ enum: ["a", "b"] })).toBe('one of "a", "b"');
    expect(describe({ anyOf: [{ const: "a" }, { const: "b" }] })).toBe('"a" or "b"');
    expect(describe({ type: "integer" })).toBe("an integer");
    expect(keyPath(["a", 0, "b"])).toBe("a[0].b");
  });
});

suite("schemaReport", () => {
  const Closed = Type.Object(
    {
      inner: Type.Optional(Type.Object({ n: Type.Optional(Type.Integer({ minimum: 0, expected: "a non-negative integer" })) }, { additionalProperties: false })),
      roots: Type.Optional(Type.Refine(Type.Array(Type.String(), { expected: "an array of paths" }), (v) => v.every((p) => p.startsWith("/")), (v) => `roots: ${JSON.stringify(v.find((p) => !p.startsWith("/")))} is not absolute`)),
    },
    { additionalProperties: false },
  );

  it("lists every unknown key of closed objects apart from the first real problem", () => {
    expect(schemaReport(Closed, { x: 1, inner: { y: 2, n: -1 } })).toEqual({ unknown: ["x", "inner.y"], problem: { path: "inner.n", expected: "a non-negative integer" } });
    expect(schemaReport(Closed, { x: 1 })).toEqual({ unknown: ["x"] });
  });

  it("passes on what a refinement says, and what the refined schema expects before that", () => {
    expect(schemaReport(Closed, { roots: ["/a", "b"] }).problem).toEqual({ path: "roots", said: 'roots: "b" is not absolute' });
    expect(schemaReport(Closed, { roots: "b" }).problem).toEqual({ path: "roots", expected: "an array of paths" });
  });
});
