import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BIG_STRING, holdsBigString, jsonPieces } from "./json-pieces.js";

describe("jsonPieces", () => {
  it("joins to exactly JSON.stringify, with no piece much longer than a slice", () => {
    const big = "a\"b\\c\n\u2028\u{1F600}é".repeat(BIG_STRING / 4);
    const value = { type: "tool_execution_end", result: { content: [{ type: "text", text: big }, { type: "text", text: "small" }] }, n: 1, u: undefined, list: [big, null, true] };
    const pieces = [...jsonPieces(value)];
    expect(pieces.join("")).toBe(JSON.stringify(value));
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThan(7 * 64 * 1024);
    expect(pieces.length).toBeGreaterThan(10);
  });

  it("keeps lone surrogates and pairs at slice boundaries as JSON.stringify writes them", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.integer({ min: 0, max: 3 }), (tail, shift) => {
        const s = "x".repeat(64 * 1024 - shift) + "\u{1F600}\uD800" + tail + "y".repeat(BIG_STRING);
        expect([...jsonPieces({ s, tail })].join("")).toBe(JSON.stringify({ s, tail }));
      }),
      { numRuns: 20 },
    );
  });

  it("passes small values through in one piece, and a string that looks like a placeholder stays itself", () => {
    const value = { a: "\u0000pith-0-0-0\u0000", b: [1, "two"] };
    expect([...jsonPieces(value)]).toEqual([JSON.stringify(value)]);
    expect([...jsonPieces(undefined)]).toEqual([]);
  });

  it("holdsBigString finds a big string anywhere in the value", () => {
    expect(holdsBigString({ a: [{ b: "x".repeat(BIG_STRING) }] })).toBe(true);
    expect(holdsBigString({ a: ["x".repeat(BIG_STRING - 1)] })).toBe(false);
  });
});
