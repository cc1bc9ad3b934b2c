import { describe, expect, it } from "vitest";
import { LfLineSplitter, parseFrameLine } from "./lf-lines.js";

describe("LfLineSplitter", () => {
  it("splits on LF only, keeping U+2028, U+2029, U+0085, VT, FF and lone CR inside lines", () => {
    const s = new LfLineSplitter();
    const text = 'a\u2028b\u2029c\u0085d\u000be\u000cf\rg\nsecond\n';
    expect(s.push(Buffer.from(text, "utf8"))).toEqual(["a\u2028b\u2029c\u0085d\u000be\u000cf\rg", "second"]);
    expect(s.end()).toBeUndefined();
  });

  it("strips exactly one trailing CR", () => {
    const s = new LfLineSplitter();
    expect(s.push(Buffer.from("one\r\ntwo\r\r\n"))).toEqual(["one", "two\r"]);
  });

  it("reassembles lines and multi-byte characters split across chunks", () => {
    const s = new LfLineSplitter();
    const bytes = Buffer.from('{"t":"é€😀"}\n', "utf8");
    const lines: string[] = [];
    for (let i = 0; i < bytes.length; i++) lines.push(...s.push(bytes.subarray(i, i + 1)));
    expect(lines).toEqual(['{"t":"é€😀"}']);
  });

  it("returns an unterminated rest at end of stream", () => {
    const s = new LfLineSplitter();
    expect(s.push(Buffer.from("a\nb"))).toEqual(["a"]);
    expect(s.end()).toBe("b");
    expect(s.end()).toBeUndefined();
  });
});

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
