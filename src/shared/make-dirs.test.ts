import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { makeDirs, makeDirsSync } from "./make-dirs.js";

describe("makeDirs", () => {
  it("creates every missing level and accepts an existing folder", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "pith-mkdirs-"));
    await makeDirs(path.join(root, "a/b/c"));
    makeDirsSync(path.join(root, "x/y"));
    expect(statSync(path.join(root, "a/b/c")).isDirectory()).toBe(true);
    expect(statSync(path.join(root, "x/y")).isDirectory()).toBe(true);
    await makeDirs(path.join(root, "a/b/c"));
    makeDirsSync(root);
  });

  it("fails at once where Node's recursive mkdir never returns (under /proc)", async () => {
    await expect(makeDirs("/proc/self/nonexistent/x")).rejects.toMatchObject({ code: "ENOENT" });
    expect(() => makeDirsSync("/proc/self/nonexistent/x")).toThrow(/ENOENT/);
  });

  it("fails when a level is a file", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "pith-mkdirs-"));
    writeFileSync(path.join(root, "f"), "");
    await expect(makeDirs(path.join(root, "f/sub"))).rejects.toMatchObject({ code: "ENOTDIR" });
    expect(existsSync(path.join(root, "f/sub"))).toBe(false);
  });
});
