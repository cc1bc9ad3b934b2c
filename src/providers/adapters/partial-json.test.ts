import { describe, expect, it } from "vitest";
import { parseFinalJson, parsePartialJson } from "./partial-json.js";

describe("parsePartialJson", () => {
  it.each([
    ['{"path":"a.ts"}', { path: "a.ts" }],
    ['{"path":"a.t', { path: "a.t" }],
    ['{"path":"a.ts","lim', { path: "a.ts" }],
    ['{"path":"a.ts","limit":', { path: "a.ts" }],
    ['{"edits":[{"old":"x","new":"y"},{"old":"z', { edits: [{ old: "x", new: "y" }, { old: "z" }] }],
    ['{"s":"quote \\"', { s: 'quote "' }],
    ["", {}],
    ["[1,2", {}],
  ])("%s", (text, expected) => {
    expect(parsePartialJson(text)).toEqual(expected);
  });
});

describe("parseFinalJson", () => {
  it("returns {} and ok=false for malformed text, {} and ok=true for empty", () => {
    expect(parseFinalJson('{"a":')).toEqual({ value: {}, ok: false });
    expect(parseFinalJson("")).toEqual({ value: {}, ok: true });
    expect(parseFinalJson('{"a":1}')).toEqual({ value: { a: 1 }, ok: true });
  });
});
