import { describe, expect, it } from "vitest";
import { displayText } from "./display-text.js";

describe("displayText", () => {
  it("shows strings as they are, primitives as String() does, objects as JSON", () => {
    expect(displayText("a b")).toBe("a b");
    expect(displayText(3)).toBe("3");
    expect(displayText(null)).toBe("null");
    expect(displayText(undefined)).toBe("undefined");
    expect(displayText({ toString: 1, valueOf: null })).toBe('{"toString":1,"valueOf":null}');
    expect(displayText([1, "x"])).toBe('[1,"x"]');
  });

  it("falls back to the kind when JSON cannot show the value", () => {
    let deep: unknown = [];
    for (let i = 0; i < 1_000_000; i++) deep = [deep];
    expect(displayText(deep)).toBe("[object Array]");
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(displayText(cyclic)).toBe("[object Object]");
  });
});
