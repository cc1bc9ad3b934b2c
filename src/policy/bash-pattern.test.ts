import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileBashPattern, matchBashPattern } from "./bash-pattern.js";

const matches = (spec: string, command: string) => matchBashPattern(compileBashPattern(spec), command);

describe("bash rule specifiers", () => {
  it("an exact specifier matches that command only (whitespace runs count as one space)", () => {
    expect(matches("npm test", "npm test")).toBe(true);
    expect(matches("npm  test ", "npm test")).toBe(true);
    expect(matches("npm test", "npm test --watch")).toBe(false);
    expect(matches("npm test", "npm tests")).toBe(false);
  });

  it("a `:*` prefix matches the command and the command followed by arguments, never a longer word", () => {
    expect(matches("git status:*", "git status")).toBe(true);
    expect(matches("git status:*", "git status --short")).toBe(true);
    expect(matches("git status:*", "git statusx")).toBe(false);
    expect(matches("git status:*", "git stat")).toBe(false);
    expect(matches("npm run test:*", "npm run test:unit")).toBe(false);
    expect(matches("npm run test::*", "npm run test:")).toBe(true);
  });

  it("`*` wildcards match any text; a lone trailing ` *` also matches the bare command", () => {
    expect(matches("ls *", "ls")).toBe(true);
    expect(matches("ls *", "ls -la")).toBe(true);
    expect(matches("ls *", "lsof")).toBe(false);
    expect(matches("ls*", "lsof")).toBe(true);
    expect(matches("git * main", "git push origin main")).toBe(true);
    expect(matches("git * main", "git push origin dev")).toBe(false);
    expect(matches("* --version", "node --version")).toBe(true);
    expect(matches("*", "anything at all")).toBe(true);
  });

  it("`\\*` is a literal star and regex characters are literal", () => {
    expect(matches("echo \\*", "echo *")).toBe(true);
    expect(matches("echo \\*", "echo x")).toBe(false);
    expect(matches("echo a.b*", "echo axb")).toBe(false);
    expect(matches("echo (a)|b *", "echo (a)|b c")).toBe(true);
  });

  it("rejects an empty command and a bare `:*`", () => {
    expect(() => compileBashPattern("  ")).toThrow(/empty/);
    expect(() => compileBashPattern(":*")).toThrow(/prefix/);
  });

  it("property: a prefix rule never matches a command that only starts with the same characters", () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z0-9_.-]{1,6}$/), fc.array(word, { maxLength: 3 }), (prefix, glued, rest) => {
        const spec = `${prefix.join(" ")}:*`;
        const command = [prefix.join(" ") + glued, ...rest].join(" ");
        expect(matches(spec, command)).toBe(false);
        expect(matches(spec, [prefix.join(" "), ...rest].join(" "))).toBe(true);
      }),
    );
  });
});
