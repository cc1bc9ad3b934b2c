import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { writeSearchFixture } from "../../../test/support/search.js";
import { findOnPath } from "../search/ripgrep.js";
import { makeCtx, makeTempDir, textOf } from "../../../test/support/tools.js";
import { createFindTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const RG_PATH = findOnPath("rg", process.env.PATH);
if (!RG_PATH) console.log("ripgrep (rg) not on PATH: skipping the rg-vs-walker comparison");
const fs = createNodeFsOps();
const walker = createFindTool({ fs, rgPath: null });
const find = (args: Record<string, unknown>, tool = walker) => runTool(tool, args, makeCtx(tmp.dir));

beforeAll(() => {
  tmp = makeTempDir();
  writeSearchFixture(tmp.dir);
});
afterAll(() => tmp.cleanup());

const CASES: Record<string, unknown>[] = [
  { pattern: "*.ts" },
  { pattern: "src/**/*.ts" },
  { pattern: "*" },
  { pattern: "*.ts", path: "src" },
  { pattern: "*.ts", limit: 2 },
  { pattern: "*.nope" },
];

describe("find (built-in walker)", () => {
  it("matches names anywhere, sorted, hidden included, ignored excluded", async () => {
    expect(textOf((await find({ pattern: "*.ts" })).result)).toBe([".hidden.ts", "src/a-b.ts", "src/a.ts", "src/b.ts", "src/nested/ok.ts"].join("\n"));
  });
  it("matches paths when the pattern has a slash, relative to path", async () => {
    expect(textOf((await find({ pattern: "nested/*.ts", path: "src" })).result)).toBe("nested/ok.ts");
    expect(textOf((await find({ pattern: "*" })).result)).not.toMatch(/build|debug\.log|secret|\.git\//);
  });
  it("applies the limit with a notice", async () => {
    expect(textOf((await find({ pattern: "*.ts", limit: 2 })).result)).toBe(".hidden.ts\nsrc/a-b.ts\n\n[2 results limit reached. Use limit=4 for more]");
  });
  it("warns when nothing matches and reports bad input", async () => {
    const none = await find({ pattern: "*.nope" });
    expect(none.result).toMatchObject({ isWarning: true, content: [{ type: "text", text: "No files found matching pattern" }] });
    expect(textOf((await find({ pattern: " " })).result)).toBe("Pattern must not be empty");
    expect(textOf((await find({ pattern: "*", path: "nope" })).result)).toBe("Path not found: nope");
    expect(textOf((await find({ pattern: "*", path: "README.md" })).result)).toBe("Path is not a directory: README.md");
  });
});

describe.skipIf(!RG_PATH)("find with ripgrep", () => {
  const rg = createFindTool({ fs, rgPath: RG_PATH });
  it.each(CASES)("gives the walker's output for %j", async (args) => {
    expect(await find(args, rg)).toEqual(await find(args));
  });
});
