import { describe, expect, it } from "vitest";
import { normalisePathArg, resolveSearchPath, resolveToolPath } from "./paths.js";

describe("tool paths", () => {
  it("expands ~, strips @ and file://, normalises unicode spaces", () => {
    expect(normalisePathArg("~/x", "/home/u")).toBe("/home/u/x");
    expect(normalisePathArg("~", "/home/u")).toBe("/home/u");
    expect(normalisePathArg("@src/a.ts")).toBe("src/a.ts");
    expect(normalisePathArg("file:///tmp/a")).toBe("/tmp/a");
    expect(normalisePathArg("my\u00A0file")).toBe("my file");
  });
  it("resolves against the cwd", () => {
    expect(resolveToolPath("a/../b", "/w")).toBe("/w/b");
    expect(resolveToolPath("/abs", "/w")).toBe("/abs");
    expect(resolveToolPath(undefined, "/w")).toBe("/w");
    expect(resolveToolPath("@~/f", "/w", "/h")).toBe("/h/f");
  });
  it("treats / as the cwd for searches", () => {
    expect(resolveSearchPath("/", "/w")).toBe("/w");
    expect(resolveSearchPath("/etc", "/w")).toBe("/etc");
  });
});
