import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { createWriteTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const tool = createWriteTool({ fs: createNodeFsOps() });
beforeEach(() => (tmp = makeTempDir()));
afterEach(() => tmp.cleanup());

describe("write", () => {
  it("creates parent directories and reports the length", async () => {
    const out = await runTool(tool, { path: "deep/er/f.txt", content: "héllo" }, makeCtx(tmp.dir));
    expect(out.isError).toBe(false);
    expect(textOf(out.result)).toBe("Successfully wrote 5 bytes to deep/er/f.txt");
    expect(readFileSync(join(tmp.dir, "deep/er/f.txt"), "utf8")).toBe("héllo");
  });
  it("overwrites an existing file", async () => {
    writeTree(tmp.dir, { "f.txt": "old content" });
    await runTool(tool, { path: "f.txt", content: "new" }, makeCtx(tmp.dir));
    expect(readFileSync(join(tmp.dir, "f.txt"), "utf8")).toBe("new");
  });
  it("refuses a directory and validates its arguments", async () => {
    writeTree(tmp.dir, { "d/x": "" });
    expect(textOf((await runTool(tool, { path: "d", content: "" }, makeCtx(tmp.dir))).result)).toBe("Path is a directory: d");
    const bad = await runTool(tool, { path: "f" }, makeCtx(tmp.dir));
    expect(textOf(bad.result)).toContain("  - content: must have required property 'content'");
  });
});

describe("write with a guard (the sandbox sets one)", () => {
  it("writes where the guard says, and a refusal is the tool's error with nothing written", async () => {
    const seen: string[] = [];
    const guarded = createWriteTool({
      fs: createNodeFsOps(),
      guardWrite: async (abs) => {
        seen.push(abs);
        if (abs.endsWith("secret.txt")) throw new Error(`refused: ${abs}`);
        return join(tmp.dir, "redirected.txt");
      },
    });
    const ok = await runTool(guarded, { path: "a.txt", content: "x" }, makeCtx(tmp.dir));
    expect(ok.isError).toBe(false);
    expect(readFileSync(join(tmp.dir, "redirected.txt"), "utf8")).toBe("x");
    const no = await runTool(guarded, { path: "secret.txt", content: "x" }, makeCtx(tmp.dir));
    expect(no.isError).toBe(true);
    expect(textOf(no.result)).toBe(`refused: ${join(tmp.dir, "secret.txt")}`);
    expect(existsSync(join(tmp.dir, "secret.txt"))).toBe(false);
    expect(seen).toEqual([join(tmp.dir, "a.txt"), join(tmp.dir, "secret.txt")]);
  });
});
