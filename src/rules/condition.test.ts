import { describe, expect, it } from "vitest";
import { compileCondition, expandGlobConditions, isCompiled, looksLikeGlob, maxMatchLength, stringList } from "./condition.js";

describe("conditions", () => {
  it("translates a leading inline flag group", () => {
    const r = compileCondition("(?i)todo");
    expect(isCompiled(r) && r.test("TODO")).toBe(true);
    const ms = compileCondition("(?ms)^a.b");
    expect(isCompiled(ms) && ms.test("x\na\nb")).toBe(true);
    const plain = compileCondition("^a.b");
    expect(isCompiled(plain) && plain.test("x\na\nb")).toBe(false);
  });

  it("reports invalid regexes, and refuses lookaround and back-references by name", () => {
    expect(compileCondition("(unclosed")).toMatchObject({ error: expect.stringMatching(/not a valid regular expression/) });
    expect(compileCondition("(?<=a)b")).toMatchObject({ error: expect.stringMatching(/lookaround.*linear-time regex engine/) });
    expect(compileCondition("(a)\\1")).toMatchObject({ error: expect.stringMatching(/back-reference/) });
  });

  it("runs in time linear in the text: a catastrophic pattern answers at once", () => {
    const r = compileCondition("^(a|aa)+$");
    expect(isCompiled(r) && r.test(`${"a".repeat(5000)}!`)).toBe(false);
    expect(isCompiled(r) && r.test("a".repeat(5000))).toBe(true);
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
    expect(maxMatchLength({ source, test: () => false })).toBe(expected);
  });
});
