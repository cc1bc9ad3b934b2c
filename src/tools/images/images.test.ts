import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { createDisplayImageTool, createInspectImageTool, INSPECT_SYSTEM_PROMPT, type VisionPort } from "./index.js";

const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
const fs = createNodeFsOps();
let tmp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  tmp = makeTempDir();
  writeTree(tmp.dir, { "dot.png": Buffer.from(PNG, "base64"), "notes.txt": "not an image" });
});
afterEach(() => tmp.cleanup());

describe("inspect_image", () => {
  it("sends the image and the question to the vision port and returns its answer with usage", async () => {
    const seen: Parameters<VisionPort>[0][] = [];
    const usage = { input: 10, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 15, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0.001 } };
    const tool = createInspectImageTool({ fs, vision: async (req) => (seen.push(req), { text: "A single red pixel.", model: "p/vision", usage }) });
    const out = await runTool(tool, { path: "dot.png", question: "What is this?" }, makeCtx(tmp.dir));
    expect(textOf(out.result)).toBe("A single red pixel.");
    expect(out.result.details).toMatchObject({ model: "p/vision", mimeType: "image/png", usage });
    expect(seen[0]).toMatchObject({ image: { type: "image", data: PNG, mimeType: "image/png" }, question: "What is this?", systemPrompt: INSPECT_SYSTEM_PROMPT });
  });

  it("refuses non-images, missing files and empty answers; passes the port's errors through", async () => {
    const tool = createInspectImageTool({ fs, vision: async () => ({ text: " ", model: "m" }) });
    const ask = (path: string) => runTool(tool, { path, question: "?" }, makeCtx(tmp.dir));
    expect(textOf((await ask("notes.txt")).result)).toBe("inspect_image only supports PNG, JPEG, GIF, and WEBP files detected by file content.");
    expect(textOf((await ask("nope.png")).result)).toBe("File not found: nope.png");
    expect(textOf((await ask("dot.png")).result)).toBe("inspect_image model returned no text output.");
    const failing = createInspectImageTool({ fs, vision: async () => Promise.reject(new Error("no vision model")) });
    expect(textOf((await runTool(failing, { path: "dot.png", question: "?" }, makeCtx(tmp.dir))).result)).toBe("no vision model");
  });
});

describe("display_image", () => {
  it("returns the image as image content, with the caption", async () => {
    const out = await runTool(createDisplayImageTool({ fs }), { path: "dot.png", caption: "the dot" }, makeCtx(tmp.dir));
    expect(out.result.content).toEqual([{ type: "image", data: PNG, mimeType: "image/png" }, { type: "text", text: "the dot" }]);
    expect(out.result.details).toMatchObject({ mimeType: "image/png", displayMethod: "inline" });
  });
});

describe("images too big to send", () => {
  it("are scaled to fit 2,000 px a side (PNG stays PNG), with what was done in details", async () => {
    const sharp = (await import("sharp")).default;
    const big = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: "#3366cc" } }).png().toBuffer();
    writeTree(tmp.dir, { "big.png": big });
    const out = await runTool(createDisplayImageTool({ fs }), { path: "big.png" }, makeCtx(tmp.dir));
    const image = out.result.content[0] as { type: string; data: string; mimeType: string };
    expect(image.mimeType).toBe("image/png");
    const meta = await sharp(Buffer.from(image.data, "base64")).metadata();
    expect([meta.width, meta.height]).toEqual([2000, 1000]);
    expect(out.result.details).toMatchObject({ resized: { from: { width: 3000, height: 1500 }, to: { width: 2000, height: 1000 } } });
    // a small image goes through untouched
    const small = await runTool(createDisplayImageTool({ fs }), { path: "dot.png" }, makeCtx(tmp.dir));
    expect((small.result.content[0] as { data: string }).data).toBe(PNG);
    expect(small.result.details).not.toHaveProperty("resized");
  });
});
