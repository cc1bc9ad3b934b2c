import { describe, expect, it } from "vitest";
import { parseFrameLine } from "./frame-line.js";

describe("parseFrameLine", () => {
  it("parses objects with a string type", () => {
    expect(parseFrameLine('{"type":"agent_start"}')).toEqual({ type: "agent_start" });
  });

  it("skips blank lines, foreign output, non-objects and objects without a type", () => {
    for (const line of ["", "   ", "hello from console.log", "42", "null", "[1]", '"x"', '{"no":"type"}', '{"type":5}']) {
      expect(parseFrameLine(line)).toBeUndefined();
    }
  });
});
