import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { writeSearchFixture } from "../../../test/support/search.js";
import { findOnPath } from "../search/ripgrep.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import type { ToolOutcome } from "../types.js";
import { createGrepTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const RG_PATH = findOnPath("rg", process.env.PATH);
if (!RG_PATH) console.log("ripgrep (rg) not on PATH: skipping the rg-vs-walker comparison");
const fs = createNodeFsOps();
const walker = createGrepTool({ fs, rgPath: null });
const grep = (args: Record<string, unknown>, tool = walker) => runTool(tool, args, makeCtx(tmp.dir));

beforeAll(() => {
  tmp = makeTempDir();
  writeSearchFixture(tmp.dir);
  writeTree(tmp.dir, { "many.txt": Array.from({ length: 30 }, (_, i) => `hit ${i + 1} ${"q".repeat(i === 0 ? 600 : 1)}`).join("\n") });
});
afterAll(() => tmp.cleanup());

const CASES: Record<string, unknown>[] = [
  { pattern: "needle" },
  { pattern: "needle", ignoreCase: true },
  { pattern: "needle", glob: "*.ts" },
  { pattern: "needle", glob: "src/**/*.ts" },
  { pattern: "needle", path: "src", context: 1 },
  { pattern: "needle", path: "src/a.ts", context: 2 },
  { pattern: "a.b", literal: true },
  { pattern: "a.b" },
  { pattern: "hit", limit: 5 },
  { pattern: "nothing-matches-this" },
];

describe("grep (built-in walker)", () => {
  it("finds matches, respecting .gitignore at every level, including hidden files, skipping binaries", async () => {
    const out = await grep({ pattern: "needle" });
    expect(out.isError).toBe(false);
    expect(textOf(out.result)).toBe(
      [".hidden.ts:1: export const hidden = 'needle';", "README.md:2: A needle in the readme.", "src/a-b.ts:1: needle dash", "src/a.ts:2: // needle one", "src/b.ts:1: export default 1; // needle", "src/nested/ok.ts:1: needle ok"].join("\n"),
    );
  });
  it("shows context lines with - and merges overlapping windows", async () => {
    const text = textOf((await grep({ pattern: "needle", path: "src/a.ts", context: 1, ignoreCase: true })).result);
    expect(text).toBe(["a.ts-1- import x from './b';", "a.ts:2: // needle one", "a.ts-3- const y = 1;", "a.ts-4- const z = 2;", "a.ts:5: // NEEDLE two"].join("\n"));
  });
  it("treats literal patterns literally", async () => {
    expect(textOf((await grep({ pattern: "a.b", literal: true, path: "regex.txt" })).result)).toBe("regex.txt:1: a.b");
    expect(textOf((await grep({ pattern: "a.b", path: "regex.txt" })).result)).toBe("regex.txt:1: a.b\nregex.txt:2: axb");
  });
  it("stops at the limit with a notice and cuts long lines", async () => {
    const text = textOf((await grep({ pattern: "hit", limit: 5 })).result);
    expect(text.split("\n\n")[0].split("\n")).toHaveLength(5);
    expect(text).toContain("many.txt:1: hit 1 " + "q".repeat(494) + "... [truncated]");
    expect(text.endsWith("[5 matches limit reached. Use limit=10 for more. Some lines truncated to 500 chars]")).toBe(true);
  });
  it("warns when nothing matches", async () => {
    const out = await grep({ pattern: "nothing-matches-this" });
    expect(out).toMatchObject({ isError: false, result: { isWarning: true } });
    expect(textOf(out.result)).toBe("No matches found");
  });
  it("reports bad input", async () => {
    expect(textOf((await grep({ pattern: "" })).result)).toBe("Pattern must not be empty");
    expect(textOf((await grep({ pattern: "x", path: "missing" })).result)).toBe("Path not found: missing");
    const bad = await grep({ pattern: "(" });
    expect(bad.isError).toBe(true);
    expect(textOf(bad.result)).toContain("not a valid regular expression");
    expect(textOf((await grep({ pattern: "(?<=a)b" })).result)).toContain("lookaround");
  });
});

describe.skipIf(!RG_PATH)("grep with ripgrep", () => {
  const rg = createGrepTool({ fs, rgPath: RG_PATH });
  it.each(CASES)("gives the walker's output for %j", async (args) => {
    const [a, b]: ToolOutcome[] = [await grep(args), await grep(args, rg)];
    expect(b).toEqual(a);
  });
});
