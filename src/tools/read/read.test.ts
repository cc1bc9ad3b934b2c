import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { createReadTool } from "./index.js";

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(16, 1)]);
let tmp: ReturnType<typeof makeTempDir>;
let images = true;
const tool = createReadTool({ fs: createNodeFsOps(), modelAcceptsImages: () => images, lineNumbers: true });
const read = async (args: Record<string, unknown>) => runTool(tool, args, makeCtx(tmp.dir));
const numbered = (n: number, text: string) => `${n}\t${text}`;

beforeEach(() => {
  tmp = makeTempDir();
  images = true;
  writeTree(tmp.dir, {
    "a.txt": "one\ntwo\nthree\n",
    "big.txt": Array.from({ length: 2500 }, (_, i) => `row ${i + 1}`).join("\n"),
    "wide.txt": Array.from({ length: 100 }, () => "w".repeat(1000)).join("\n"),
    "huge-line.txt": "z".repeat(60 * 1024),
    "pic.bin": PNG,
    "empty.txt": "",
    "dir/x": "x",
  });
});
afterEach(() => tmp.cleanup());

describe("read", () => {
  it("returns the text as is by default, and says so in its description", async () => {
    const plain = createReadTool({ fs: createNodeFsOps(), modelAcceptsImages: () => true });
    const out = await runTool(plain, { path: "a.txt", offset: 2 }, makeCtx(tmp.dir));
    expect(textOf(out.result)).toBe("two\nthree");
    expect(plain.description).toContain("Text comes back as is");
    expect(tool.description).toContain("line numbers (number, tab, text)");
  });
  it("returns numbered lines with lineNumbers (setting readLineNumbers)", async () => {
    const out = await read({ path: "a.txt" });
    expect(out.isError).toBe(false);
    expect(textOf(out.result)).toBe([numbered(1, "one"), numbered(2, "two"), numbered(3, "three")].join("\n"));
  });
  it("pages with offset and limit and says how much remains", async () => {
    const out = await read({ path: "@a.txt", offset: 2, limit: 1 });
    expect(textOf(out.result)).toBe(`${numbered(2, "two")}\n\n[1 more lines in file. Use offset=3 to continue.]`);
  });
  it("truncates at 2000 lines with a continuation notice", async () => {
    const text = textOf((await read({ path: "big.txt" })).result);
    expect(text).toContain(numbered(2000, "row 2000"));
    expect(text).not.toContain("row 2001");
    expect(text.endsWith("[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
  });
  it("truncates at 50KB with the byte-limit notice", async () => {
    const text = textOf((await read({ path: "wide.txt", offset: 2 })).result);
    expect(text).toMatch(/\[Showing lines 2-\d+ of 100 \(50\.0KB limit\)\. Use offset=\d+ to continue\.\]$/);
  });
  it("explains a first line over the limit", async () => {
    const text = textOf((await read({ path: "huge-line.txt" })).result);
    expect(text).toBe("[Line 1 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '1p' huge-line.txt | head -c 51200]");
  });
  it("errors on an offset past the end", async () => {
    const out = await read({ path: "a.txt", offset: 9 });
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toBe("Offset 9 is beyond end of file (3 lines total)");
  });
  it("errors on a missing file and on a directory", async () => {
    expect(textOf((await read({ path: "nope.txt" })).result)).toBe("File not found: nope.txt");
    const dir = await read({ path: "dir" });
    expect(dir.isError).toBe(true);
    expect(textOf(dir.result)).toBe("Path is a directory: dir. Use ls to list its contents.");
  });
  it("reads in one filesystem call; a failing read of an existing file keeps its own error", async () => {
    const calls: string[] = [];
    const real = createNodeFsOps();
    const counted = { ...real, stat: (p: string) => (calls.push("stat"), real.stat(p)), readFile: (p: string) => (calls.push("readFile"), real.readFile(p)) };
    const t = createReadTool({ fs: counted, modelAcceptsImages: () => true });
    expect(textOf((await runTool(t, { path: "a.txt" }, makeCtx(tmp.dir))).result)).toContain("one");
    expect(calls).toEqual(["readFile"]);
    const failing = { ...real, readFile: () => Promise.reject(new Error("EIO: i/o error, read")) };
    const out = await runTool(createReadTool({ fs: failing, modelAcceptsImages: () => true }), { path: "a.txt" }, makeCtx(tmp.dir));
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toBe("EIO: i/o error, read");
  });
  it("reads an empty file", async () => {
    expect(textOf((await read({ path: "empty.txt" })).result)).toBe("(empty file)");
  });
  it("returns images as image content, or a note when the model cannot see them", async () => {
    const out = await read({ path: "pic.bin" });
    expect(out.result.content[0]).toEqual({ type: "text", text: "Read image file [image/png]" });
    expect(out.result.content[1]).toEqual({ type: "image", mimeType: "image/png", data: PNG.toString("base64") });
    images = false;
    const note = await read({ path: "pic.bin" });
    expect(note.result.content).toHaveLength(1);
    expect(textOf(note.result)).toContain("does not accept images");
  });
  it("is a shared, non-abortable built-in", () => {
    expect(tool).toMatchObject({ concurrency: "shared", nonAbortable: true, source: "builtin" });
  });
});
