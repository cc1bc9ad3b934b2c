import { describe, expect, it } from "vitest";
import { compileCondition, expandGlobConditions, looksLikeGlob, maxMatchLength, stringList } from "./condition.js";

describe("conditions", () => {
  it("translates a leading inline flag group", () => {
    const r = compileCondition("(?i)todo");
    expect(r).toBeInstanceOf(RegExp);
    expect((r as RegExp).test("TODO")).toBe(true);
    expect((compileCondition("(?ms)a.b") as RegExp).flags).toBe("ms");
  });

  it("reports invalid regexes", () => {
    expect(compileCondition("(unclosed")).toMatchObject({ error: expect.stringMatching(/./) });
  });

  it.each([
    ["*.rs", true],
    ["src/**/x.ts", true],
    ["**/*.{ts,tsx}", true],
    ["foo.*", false],
    [".*", false],
    ["a*b", false],
    ["console\\.log", false],
    ["src/x.ts", false],
  ])("looksLikeGlob(%s) = %s", (token, expected) => {
    expect(looksLikeGlob(token)).toBe(expected);
  });

  it("expands glob tokens into edit/write scopes with a catch-all condition", () => {
    expect(expandGlobConditions(["*.rs", "unsafe", "*.c"], ["text"])).toEqual({
      condition: [".*", "unsafe"],
      scope: ["text", "tool:edit(*.rs)", "tool:write(*.rs)", "tool:edit(*.c)", "tool:write(*.c)"],
    });
  });

  it("stringList trims, drops empties and non-strings, dedupes", () => {
    expect(stringList(" a ")).toEqual(["a"]);
    expect(stringList(["a", " ", 3, "a", "b"])).toEqual(["a", "b"]);
    expect(stringList("")).toBeUndefined();
    expect(stringList(true)).toBeUndefined();
  });

  it.each([
    ["needle", 6],
    ["console\\.log\\(", 14],
    ["a|bc", 4],
    ["[*+]x?", 6],
    ["foo(?=bar)", 10],
    ["a+", undefined],
    ["a*", undefined],
    ["a{2}", undefined],
    ["^a", undefined],
    ["\\bany\\b", undefined],
    ["(a)\\1", undefined],
    ["(?<=a)b", undefined],
  ])("maxMatchLength(/%s/) = %s", (source, expected) => {
    expect(maxMatchLength(new RegExp(source))).toBe(expected);
  });
});
