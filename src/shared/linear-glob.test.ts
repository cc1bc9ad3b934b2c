import { describe, expect, it } from "vitest";
import { compileGitignoreGlob, compileLinearGlob } from "./linear-glob.js";

describe("globs on the linear-time engine", () => {
  it("match like the usual glob dialect", () => {
    const m = (g: string, p: string, basename = false) => compileLinearGlob(g, { basename })(p);
    expect(m("*.ts", "a.ts")).toBe(true);
    expect(m("*.ts", "src/a.ts")).toBe(false);
    expect(m("*.ts", "src/a.ts", true)).toBe(true);
    expect(m("src/**/*.ts", "src/a.ts")).toBe(true);
    expect(m("src/**/*.ts", "src/x/y/a.ts")).toBe(true);
    expect(m("src/**", "src")).toBe(true);
    expect(m("**/*.{ts,tsx}", "a/b.tsx")).toBe(true);
    expect(m("f{1..3}.md", "f2.md")).toBe(true);
    expect(m("[a-c]?.md", "bx.md")).toBe(true);
    expect(m("[!a-c]?.md", "bx.md")).toBe(false);
    expect(m("!*.md", "a.ts")).toBe(true);
    expect(m("a.b(c)+", "a.b(c)+")).toBe(true);
    expect(compileLinearGlob("API_*", { ignoreCase: true })("api_key")).toBe(true);
  });

  it("match like gitignore", () => {
    const m = (g: string, p: string) => compileGitignoreGlob(g)(p);
    expect(m(".env", "deep/down/.env")).toBe(true);
    expect(m("/.env", "deep/.env")).toBe(false);
    expect(m("src/**", "src/a/b.ts")).toBe(true);
    expect(m("src/**", "src")).toBe(false);
    expect(m("build/", "build/x")).toBe(true);
    expect(m("build/", "build")).toBe(false);
    expect(m("src", "src/a.ts")).toBe(true);
    expect(m("**/keys/*", "a/keys/id")).toBe(true);
    expect(m("a{b,c}", "a{b,c}")).toBe(true);
  });

  it("answer catastrophic globs at once", () => {
    const star = "*a".repeat(40) + "*b";
    expect(compileLinearGlob(star)("a".repeat(5000))).toBe(false);
    const deep = "**/a/".repeat(20) + "b";
    expect(compileGitignoreGlob(deep)(`${"a/".repeat(2000)}c`)).toBe(false);
    expect(compileLinearGlob(deep)(`${"a/".repeat(2000)}c`)).toBe(false);
  });
});
