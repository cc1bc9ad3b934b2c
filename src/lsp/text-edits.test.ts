// Applying a server's text edits: positions in UTF-16 code units per line, any line break,
// clamping, insertions at one place kept in order, overlaps refused; checked against a simple
// model of the same edits over random texts.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { applyTextEdits, lineText } from "./text-edits.js";

const at = (line: number, character: number) => ({ line, character });
const edit = (sl: number, sc: number, el: number, ec: number, newText: string) => ({ range: { start: at(sl, sc), end: at(el, ec) }, newText });

describe("applyTextEdits", () => {
  it("replaces, inserts and deletes across lines and line-break styles", () => {
    expect(applyTextEdits("let a = 1;\nlet b = a;\n", [edit(0, 4, 0, 5, "x"), edit(1, 8, 1, 9, "x")])).toBe("let x = 1;\nlet b = x;\n");
    expect(applyTextEdits("one\r\ntwo\rthree", [edit(1, 0, 1, 3, "2"), edit(2, 0, 2, 5, "3")])).toBe("one\r\n2\r3");
    expect(applyTextEdits("ab\ncd", [edit(0, 1, 1, 1, "")])).toBe("ad");
  });

  it("counts characters in UTF-16 code units, as announced to servers", () => {
    expect(applyTextEdits("const s = '😀'; const x = 1;", [edit(0, 22, 0, 23, "y")])).toBe("const s = '😀'; const y = 1;");
  });

  it("clamps a position past the end of its line or of the text", () => {
    expect(applyTextEdits("ab\ncd", [edit(0, 99, 0, 99, "!")])).toBe("ab!\ncd");
    expect(applyTextEdits("ab", [edit(5, 0, 5, 0, "!")])).toBe("ab!");
  });

  it("keeps insertions at the same place in the order given, and refuses overlaps", () => {
    expect(applyTextEdits("x", [edit(0, 0, 0, 0, "a"), edit(0, 0, 0, 0, "b")])).toBe("abx");
    expect(() => applyTextEdits("abcdef", [edit(0, 0, 0, 3, "x"), edit(0, 2, 0, 4, "y")])).toThrow("overlapping edits");
  });

  it("equals splicing the same non-overlapping spans into the text, for any text and spans", () => {
    const text = fc.array(fc.constantFrom("a", "b", "\n", "\r\n", "é"), { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat(), fc.string({ maxLength: 3 })), { maxLength: 5 }), (t, raw) => {
        // non-overlapping offset spans, then the same spans as positions
        const cuts = [...new Set(raw.flatMap(([a, b]) => [a % (t.length + 1), b % (t.length + 1)]))].sort((x, y) => x - y);
        const spans: Array<[number, number, string]> = [];
        for (let i = 0; i + 1 < cuts.length; i += 2) spans.push([cuts[i], cuts[i + 1], raw[spans.length % Math.max(1, raw.length)]?.[2] ?? ""]);
        const valid = spans.filter(([from, to]) => !inBreak(t, from) && !inBreak(t, to));
        let expected = t;
        for (const [from, to, s] of [...valid].reverse()) expected = expected.slice(0, from) + s + expected.slice(to);
        const edits = valid.map(([from, to, s]) => ({ range: { start: positionOf(t, from), end: positionOf(t, to) }, newText: s }));
        expect(applyTextEdits(t, edits)).toBe(expected);
      }),
    );
  });
});

describe("lineText", () => {
  it("gives a line without its break, undefined past the end", () => {
    expect(lineText("a\r\nb\rc\n", 0)).toBe("a");
    expect(lineText("a\r\nb\rc\n", 1)).toBe("b");
    expect(lineText("a\r\nb\rc\n", 3)).toBe("");
    expect(lineText("a", 1)).toBeUndefined();
  });
});

/** An offset between the "\r" and "\n" of a "\r\n" has no position. */
function inBreak(t: string, offset: number): boolean {
  return t[offset - 1] === "\r" && t[offset] === "\n";
}

function positionOf(t: string, offset: number): { line: number; character: number } {
  let line = 0;
  let start = 0;
  for (let i = 0; i < offset; i++) {
    if (t[i] === "\n" || (t[i] === "\r" && t[i + 1] !== "\n")) {
      line++;
      start = i + 1;
    }
  }
  return { line, character: offset - start };
}
