// The file observer port: write, edit (both modes) and read tell it what they wrote or read, and
// a note it returns ends the tool's result; without a note the result is as it always was.
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createEditTool } from "../edit/index.js";
import { createHashlineEditTool } from "../hashline/index.js";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { createReadTool } from "../read/index.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import type { FileObserver, WrittenFile } from "./file-observer.js";
import { createWriteTool } from "./index.js";

const fs = createNodeFsOps();
let tmp: ReturnType<typeof makeTempDir>;
let seen: WrittenFile[];
let reads: Array<[string, string]>;
let note: string | undefined;
const observer: FileObserver = {
  afterWrite: async (file) => {
    seen.push(file);
    return note;
  },
  afterRead: (path, text) => reads.push([path, text]),
};

beforeEach(() => {
  tmp = makeTempDir();
  writeTree(tmp.dir, { "a.ts": "let a = 1;\n" });
  seen = [];
  reads = [];
  note = "LSP fake: 1 error\na.ts:1:5 error: bad";
});
afterEach(() => tmp.cleanup?.());

describe("file observer", () => {
  it("write: the note ends the result; no note, no change", async () => {
    const write = createWriteTool({ fs, observer });
    const r = await runTool(write, { path: "b.ts", content: "x\n" }, makeCtx(tmp.dir));
    expect(textOf(r.result)).toBe("Successfully wrote 2 bytes to b.ts\n\nLSP fake: 1 error\na.ts:1:5 error: bad");
    expect(seen).toEqual([{ path: join(tmp.dir, "b.ts"), content: "x\n", kind: "write" }]);
    note = undefined;
    expect(textOf((await runTool(write, { path: "b.ts", content: "y\n" }, makeCtx(tmp.dir))).result)).toBe("Successfully wrote 2 bytes to b.ts");
  });

  it("edit, in both modes, reports the new text as an edit", async () => {
    const edit = createEditTool({ fs, observer });
    const r = await runTool(edit, { path: "a.ts", oldText: "1", newText: "2" }, makeCtx(tmp.dir));
    expect(textOf(r.result)).toBe("Successfully replaced text in a.ts.\n\nLSP fake: 1 error\na.ts:1:5 error: bad");
    const hashline = createHashlineEditTool({ fs, observer });
    await runTool(hashline, { edits: [{ path: "c.ts", loc: "append", content: ["let c = 3;"] }] }, makeCtx(tmp.dir));
    expect(seen).toEqual([
      { path: join(tmp.dir, "a.ts"), content: "let a = 2;\n", kind: "edit" },
      { path: join(tmp.dir, "c.ts"), content: "let c = 3;", kind: "edit" },
    ]);
  });

  it("read tells it the text it read", async () => {
    await runTool(createReadTool({ fs, modelAcceptsImages: () => true, observer }), { path: "a.ts" }, makeCtx(tmp.dir));
    expect(reads).toEqual([[join(tmp.dir, "a.ts"), "let a = 1;\n"]]);
  });
});
