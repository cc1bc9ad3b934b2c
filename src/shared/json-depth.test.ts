import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkDepth, exceedsDepth, fieldOf, findTooDeep, MAX_JSON_DEPTH } from "./json-depth.js";

/** An array nested `depth` levels deep (the outermost array is level 1), built without recursion. */
function nestedArrays(depth: number, leaf: unknown = 0): unknown {
  let value: unknown = leaf;
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/** Reference depth by plain recursion (only used on small values). */
function depthOf(value: unknown): number {
  if (typeof value !== "object" || value === null) return 0;
  const children = Object.values(value as Record<string, unknown>);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe("findTooDeep", () => {
  it("walks a 1,000,000-deep value without overflowing the stack", () => {
    const path = findTooDeep({ type: "set_todos", phases: nestedArrays(1_000_000) });
    expect(path).toEqual(["phases", ...Array.from({ length: MAX_JSON_DEPTH - 1 }, () => 0)]);
  });

  it("accepts exactly MAX_JSON_DEPTH levels and refuses one more", () => {
    expect(findTooDeep(nestedArrays(MAX_JSON_DEPTH))).toBeUndefined();
    expect(findTooDeep(nestedArrays(MAX_JSON_DEPTH + 1))).toHaveLength(MAX_JSON_DEPTH);
    expect(findTooDeep("x")).toBeUndefined();
    expect(findTooDeep(null)).toBeUndefined();
  });

  it("finds the deep branch among shallow siblings", () => {
    const value = { a: [1, { b: 2 }], c: { d: [[{ e: nestedArrays(10) }]] } };
    expect(findTooDeep(value, 6)).toEqual(["c", "d", 0, 0, "e", 0]);
    expect(findTooDeep(value, 15)).toBeUndefined();
  });

  it("agrees with a recursive depth measure on arbitrary JSON", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 1, max: 10 }), (value, max) => {
        expect(findTooDeep(value, max) === undefined).toBe(depthOf(value) <= max);
      }),
      { numRuns: 500 },
    );
  });
});

describe("fieldOf and checkDepth", () => {
  it("names the field that holds the nesting", () => {
    expect(fieldOf(["phases", 0, "tasks", 0, "notes", 0, 0, 0])).toBe("phases[0].tasks[0].notes");
    expect(fieldOf(["type", 0, 0])).toBe("type");
    expect(fieldOf(["a", "a", "a", "a", "a", "a", "a", "a", "a", "a"])).toBe("a.a.a.a.a.a.a.a…");
    expect(fieldOf(["k".repeat(100)])).toBe(`${"k".repeat(64)}…`);
  });

  it("says which field is too deep and the limit", () => {
    const frame = { type: "set_todos", phases: [{ tasks: [{ notes: nestedArrays(100_000) }] }] };
    expect(checkDepth(frame)).toBe(`Invalid "phases[0].tasks[0].notes": nested deeper than ${MAX_JSON_DEPTH} levels`);
    expect(checkDepth({ type: "get_state" })).toBeUndefined();
  });
});

describe("exceedsDepth", () => {
  const nest = (levels: number): unknown => {
    let v: unknown = 1;
    for (let i = 0; i < levels; i++) v = i % 2 ? { k: v } : [v];
    return v;
  };
  it("agrees with findTooDeep at and around the limit, for arrays and objects", () => {
    for (const levels of [0, 1, 5, 127, 128, 129, 5000]) {
      for (const max of [1, 2, 128]) expect(exceedsDepth(nest(levels), max)).toBe(findTooDeep(nest(levels), max) !== undefined);
    }
  });
});
