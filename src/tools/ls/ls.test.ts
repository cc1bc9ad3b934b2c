import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { createLsTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const tool = createLsTool({ fs: createNodeFsOps() });
const ls = (args: Record<string, unknown>) => runTool(tool, args, makeCtx(tmp.dir));
beforeEach(() => {
  tmp = makeTempDir();
  writeTree(tmp.dir, { "b.txt": "", "A.md": "", ".env": "", "src/x.ts": "", "empty/.keep": "" });
});
afterEach(() => tmp.cleanup());

describe("ls", () => {
  it("lists sorted case-insensitively, dirs with /, dotfiles included", async () => {
    expect(textOf((await ls({})).result)).toBe([".env", "A.md", "b.txt", "empty/", "src/"].join("\n"));
  });
  it("applies the limit with a notice", async () => {
    expect(textOf((await ls({ limit: 2 })).result)).toBe(".env\nA.md\n\n[2 entries limit reached. Use limit=4 for more]");
  });
  it("reports errors and empty directories", async () => {
    expect(textOf((await ls({ path: "missing" })).result)).toBe("Path not found: missing");
    expect(textOf((await ls({ path: "b.txt" })).result)).toBe("Not a directory: b.txt");
    writeTree(tmp.dir, { "e2/sub/x": "" });
    expect(textOf((await ls({ path: "e2/sub/.." })).result)).toBe("sub/");
    const fsops = createNodeFsOps();
    await fsops.mkdir(`${tmp.dir}/void`);
    expect(textOf((await ls({ path: "void" })).result)).toBe("(empty directory)");
  });
});
