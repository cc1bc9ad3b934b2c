import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { createAstEditTool, createAstGrepTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const opts = { fs: createNodeFsOps(), rgPath: null };
const grep = (args: Record<string, unknown>) => runTool(createAstGrepTool(opts), args, makeCtx(tmp.dir));
const edit = (args: Record<string, unknown>) => runTool(createAstEditTool(opts), args, makeCtx(tmp.dir));
const file = (rel: string) => readFileSync(join(tmp.dir, rel), "utf8");
const APP = 'import x from "y";\nconsole.log("start", x);\nfunction add(a: number, b: number) {\n  return a + b;\n}\nconsole.log(add(1, 2));\n';

beforeEach(() => {
  tmp = makeTempDir();
  writeTree(tmp.dir, {
    "src/app.ts": APP,
    "src/ui/view.tsx": "export const V = () => <div>{console.log(1)}</div>;\n",
    "lib/a.js": "console.log('js');\n",
    "ignored/skip.ts": "console.log('ignored');\n",
    ".gitignore": "ignored/\n",
    "notes.md": "console.log(nope)\n",
  });
});
afterEach(() => tmp.cleanup());

describe("ast_grep", () => {
  it("finds structural matches in every language file, grouped by directory, with captures; gitignore respected", async () => {
    const out = await grep({ pat: ["console.log($$$ARGS)"] });
    expect(out.isError, textOf(out.result)).toBe(false);
    expect(textOf(out.result)).toBe(
      [
        "# lib",
        "## └─ a.js",
        "1:console.log('js')",
        "  meta: ARGS='js'",
        "",
        "# src",
        "## └─ app.ts",
        '2:console.log("start", x)',
        '  meta: ARGS="start", x',
        "6:console.log(add(1, 2))",
        "  meta: ARGS=add(1, 2)",
        "",
        "# src/ui",
        "## └─ view.tsx",
        "1:console.log(1)",
        "  meta: ARGS=1",
      ].join("\n"),
    );
    expect(out.result.details).toMatchObject({ matchCount: 4, fileCount: 3, filesSearched: 3, limitReached: false, scopePath: "." });
  });

  it("shows multi-line matches, pages with limit/offset, filters by glob and lang, and says when nothing matched", async () => {
    const fn = await grep({ pat: ["function $NAME($$$) { $$$BODY }"], path: "src/app.ts" });
    expect(textOf(fn.result)).toBe("3:function add(a: number, b: number) {\n4-  return a + b;\n5-}\n  meta: BODY=return a + b;, NAME=add");
    const page = await grep({ pat: ["console.log($$$)"], path: "src", limit: 1, offset: 1 });
    expect(textOf(page.result)).toMatch(/^# app\.ts\n6:console\.log\(add\(1, 2\)\)\n\nResult limit reached/);
    expect((await grep({ pat: ["console.log($$$)"], glob: "*.js" })).result.details).toMatchObject({ matchCount: 1 });
    expect((await grep({ pat: ["console.log($$$)"], lang: "javascript" })).result.details).toMatchObject({ matchCount: 1 });
    expect((await grep({ pat: ["console.log($$$)"], path: "src/**/*.tsx" })).result.details).toMatchObject({ matchCount: 1 });
    const none = await grep({ pat: ["debugger"] });
    expect(textOf(none.result)).toBe("No matches found");
    expect(none.result).toMatchObject({ isWarning: true });
  });

  it("explains bad input", async () => {
    expect(textOf((await grep({ pat: ["  "] })).result)).toBe("`pat` must include at least one non-empty pattern");
    expect(textOf((await grep({ pat: ["x"], path: "nope" })).result)).toBe("Path not found: nope");
    expect(textOf((await grep({ pat: ["x"], lang: "cobol" })).result)).toMatch(/^Unsupported language "cobol"/);
    expect(textOf((await grep({ pat: ["x"], limit: 0 })).result)).toBe("Limit must be a positive number");
    expect(textOf((await grep({ pat: ["x"], path: "notes.md" })).result)).toMatch(/^Cannot tell the language of notes\.md/);
  });
});

describe("ast_edit", () => {
  it("rewrites with captures, writes each file, and returns the changes and diffs", async () => {
    const out = await edit({ ops: [{ pat: "console.log($$$ARGS)", out: "logger.info($$$ARGS)" }], path: "src" });
    expect(out.isError, textOf(out.result)).toBe(false);
    expect(file("src/app.ts")).toBe(APP.replace('console.log("start", x)', 'logger.info("start", x)').replace("console.log(add(1, 2))", "logger.info(add(1, 2))"));
    expect(file("src/ui/view.tsx")).toContain("{logger.info(1)}");
    expect(textOf(out.result)).toBe(
      [
        "# app.ts (2 replacements)",
        '-2:1 console.log("start", x)',
        '+2:1 logger.info("start", x)',
        "-6:1 console.log(add(1, 2))",
        "+6:1 logger.info(add(1, 2))",
        "",
        "# ui",
        "## └─ view.tsx (1 replacement)",
        "-1:30 console.log(1)",
        "+1:30 logger.info(1)",
        "",
        "Applied 3 replacements in 2 files.",
      ].join("\n"),
    );
    expect(out.result.details).toMatchObject({ totalReplacements: 3, filesTouched: 2, applied: true });
    expect((out.result.details as { diff: string }).diff).toContain('+logger.info("start", x);');
  });

  it("previews with dryRun, honours limit, deletes with an empty template, refuses bad ops", async () => {
    const dry = await edit({ ops: [{ pat: "console.log($$$)", out: "" }], path: "src/app.ts", dryRun: true });
    expect(textOf(dry.result)).toMatch(/Preview \(dryRun\): 2 replacements in 1 file; nothing written\.$/);
    expect(file("src/app.ts")).toBe(APP);
    const one = await edit({ ops: [{ pat: "console.log($$$)", out: "" }], path: "src/app.ts", limit: 1 });
    expect(textOf(one.result)).toContain("Limit reached; narrow path or increase limit.");
    expect(file("src/app.ts")).toBe(APP.replace('console.log("start", x)', ""));
    expect(textOf((await edit({ ops: [] })).result)).toBe("`ops` must include at least one op entry");
    expect(textOf((await edit({ ops: [{ pat: "a", out: "b" }, { pat: "a", out: "c" }] })).result)).toBe("Duplicate rewrite pattern: a");
    const none = await edit({ ops: [{ pat: "debugger", out: "" }] });
    expect(textOf(none.result)).toBe("No replacements made");
  });
});
