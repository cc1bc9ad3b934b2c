import { describe, expect, it } from "vitest";
import { PithError } from "../shared/errors.js";
import { parseFrontmatter } from "./frontmatter.js";

describe("parseFrontmatter", () => {
  it("reads scalars, quotes, booleans, flow and block lists, comments and the body", () => {
    const text = [
      "---",
      "# a comment",
      "description: Use the logger # trailing comment",
      "alwaysApply: false",
      "interruptMode: 'prose-only'",
      'condition: ["console\\\\.log\\\\(", \'it\'\'s, fine\', plain]',
      "globs:",
      "  - src/**/*.ts",
      '  - "*.tsx"',
      "empty:",
      "tilde: ~",
      "---",
      "Body line 1",
      "Body line 2",
    ].join("\r\n");
    const { data, body } = parseFrontmatter(text);
    expect(data).toEqual({
      description: "Use the logger",
      alwaysApply: false,
      interruptMode: "prose-only",
      condition: ["console\\.log\\(", "it's, fine", "plain"],
      globs: ["src/**/*.ts", "*.tsx"],
      empty: null,
      tilde: null,
    });
    expect(body).toBe("Body line 1\nBody line 2");
  });

  it("keeps regex escapes in plain and double-quoted values", () => {
    const { data } = parseFrontmatter('---\na: \\bfoo\\d+ # c\nb: "\\bfoo\\d+\\"x\\" \\u0041\\n"\nc: a#b\n---\n');
    expect(data.a).toBe("\\bfoo\\d+");
    expect(data.b).toBe('\\bfoo\\d+"x" A\n');
    expect(data.c).toBe("a#b");
  });

  it("reads block scalars", () => {
    const { data } = parseFrontmatter("---\nliteral: |\n  one\n    two\n\nstripped: |-\n  one\nfolded: >-\n  one\n  two\nafter: x\n---\nbody");
    // YAML's own rules: `|` keeps one final line end, `|-` none
    expect(data.literal).toBe("one\n  two\n");
    expect(data.stripped).toBe("one");
    expect(data.folded).toBe("one two");
    expect(data.after).toBe("x");
  });

  it("keeps numbers as written and lets a later duplicate key win", () => {
    const { data } = parseFrontmatter("---\nversion: 1.10\nn: 007\nlist: [1, 2.0]\nk: a\nk: b\n---\n");
    expect(data).toEqual({ version: "1.10", n: "007", list: ["1", "2.0"], k: "b" });
  });

  it("treats a file without front-matter as all body", () => {
    expect(parseFrontmatter("# Title\ntext")).toEqual({ data: {}, body: "# Title\ntext" });
    expect(parseFrontmatter("\uFEFF---\na: 1\n---\nb").data).toEqual({ a: "1" });
  });

  it.each([
    ["unclosed front-matter", "---\na: 1\n", /not closed/],
    ["a line that is not key: value", "---\njust text\n---\n", /line 2: expected "key: value"/],
    ["an unclosed flow list", "---\na: [x, y\n---\n", /line 2: Flow sequence .* must .* end with a \]/],
    ["an unclosed double quote", '---\na: "x\n---\n', /line 2: Missing closing "quote/],
    ["text after a closing quote", '---\na: "x" y\n---\n', /line 2: Unexpected scalar/],
    ["an unclosed single quote", "---\na: 'x\n---\n", /line 2: Missing closing 'quote/],
    ["a later line that is not key: value", "---\na: 1\nb: 2\nc\n---\n", /line 4: /],
    ["a nested mapping", "---\na:\n  b: 1\n---\n", /key "a": expected text, true\/false or a list of text/],
  ])("rejects %s as a config error", (_label, text, message) => {
    let caught: unknown;
    try {
      parseFrontmatter(text);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PithError);
    expect((caught as PithError).code).toBe("config");
    expect((caught as PithError).message).toMatch(message);
  });
});
