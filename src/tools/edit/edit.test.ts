import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { createEditTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const tool = createEditTool({ fs: createNodeFsOps() });
const edit = (args: Record<string, unknown>) => runTool(tool, args, makeCtx(tmp.dir));
const file = (rel: string) => readFileSync(join(tmp.dir, rel), "utf8");

beforeEach(() => {
  tmp = makeTempDir();
  writeTree(tmp.dir, {
    "a.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n",
    "dup.ts": "x();\nx();\n",
    "crlf.txt": "one\r\ntwo\r\n",
    "quotes.txt": "say \u201chello\u201d \u2014 ok\n",
  });
});
afterEach(() => tmp.cleanup());

describe("edit", () => {
  it("replaces unique text and returns a diff and the first changed line", async () => {
    const out = await edit({ path: "a.ts", oldText: "const b = 2;", newText: "const b = 20;" });
    expect(out.isError).toBe(false);
    expect(textOf(out.result)).toBe("Successfully replaced text in a.ts.");
    expect(file("a.ts")).toBe("const a = 1;\nconst b = 20;\nconst c = 3;\n");
    const details = out.result.details as { diff: string; firstChangedLine: number };
    expect(details.firstChangedLine).toBe(2);
    expect(details.diff).toContain("-const b = 2;\n+const b = 20;");
    expect(details.diff).toContain("@@ -1,3 +1,3 @@");
  });
  it("applies several non-overlapping edits against the original", async () => {
    const out = await edit({ path: "a.ts", edits: [{ oldText: "const c = 3;", newText: "C" }, { oldText: "const a = 1;", newText: "A" }] });
    expect(textOf(out.result)).toBe("Successfully applied 2 edits to a.ts.");
    expect(file("a.ts")).toBe("A\nconst b = 2;\nC\n");
  });
  it("rejects overlapping edits without writing", async () => {
    const out = await edit({ path: "a.ts", edits: [{ oldText: "const a = 1;\nconst b", newText: "" }, { oldText: "const b = 2;", newText: "" }] });
    expect(textOf(out.result)).toBe("edits[0] and edits[1] overlap in a.ts. Merge them into one edit.");
    expect(file("a.ts")).toBe("const a = 1;\nconst b = 2;\nconst c = 3;\n");
  });
  it("reports text not found, not unique, empty and identical", async () => {
    expect(textOf((await edit({ path: "a.ts", oldText: "nope", newText: "x" })).result)).toBe(
      "Could not find the exact text in a.ts. The old text must match exactly including all whitespace and newlines.",
    );
    expect(textOf((await edit({ path: "dup.ts", oldText: "x();", newText: "y();" })).result)).toBe(
      "Found 2 occurrences of the text in dup.ts. The text must be unique. Please provide more context to make it unique.",
    );
    expect(textOf((await edit({ path: "a.ts", oldText: "", newText: "x" })).result)).toBe("oldText must not be empty.");
    expect(textOf((await edit({ path: "a.ts", oldText: "const a = 1;", newText: "const a = 1;" })).result)).toBe(
      "No changes made to a.ts. The replacement produced identical content.",
    );
    expect(textOf((await edit({ path: "zz.ts", oldText: "a", newText: "b" })).result)).toBe("File not found: zz.ts");
    expect(textOf((await edit({ path: "a.ts", newText: "b" })).result)).toBe("oldText and newText must be given together.");
  });
  it("keeps CRLF line endings", async () => {
    await edit({ path: "crlf.txt", oldText: "one\ntwo", newText: "1\n2" });
    expect(file("crlf.txt")).toBe("1\r\n2\r\n");
  });
  it("matches through smart quotes and dashes, leaving the rest untouched", async () => {
    const out = await edit({ path: "quotes.txt", oldText: 'say "hello" - ok', newText: "bye" });
    expect(out.isError).toBe(false);
    expect(file("quotes.txt")).toBe("bye\n");
  });
});

describe("edit with a guard (the sandbox sets one)", () => {
  it("edits the path the guard returns; a refusal is the tool's error and the file is untouched", async () => {
    const guarded = createEditTool({
      fs: createNodeFsOps(),
      guardWrite: async (abs) => {
        if (abs.endsWith("dup.ts")) throw new Error("outside the writable roots");
        return abs;
      },
    });
    const ok = await runTool(guarded, { path: "a.ts", oldText: "const b = 2;", newText: "const b = 20;" }, makeCtx(tmp.dir));
    expect(ok.isError).toBe(false);
    expect(file("a.ts")).toContain("const b = 20;");
    const no = await runTool(guarded, { path: "dup.ts", oldText: "x();\nx();", newText: "y();" }, makeCtx(tmp.dir));
    expect(no).toMatchObject({ isError: true });
    expect(textOf(no.result)).toBe("outside the writable roots");
    expect(file("dup.ts")).toBe("x();\nx();\n");
  });
});
