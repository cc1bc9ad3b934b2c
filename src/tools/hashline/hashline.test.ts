import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { createReadTool } from "../read/index.js";
import { createWriteTool } from "../write/index.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { parseTag, toOp, type HashlineOp } from "./anchors.js";
import { applyHashlineOps } from "./apply.js";
import { createHashlineEditTool, loadLineHasher, type LineHasher } from "./index.js";

let hash: LineHasher;
let tmp: ReturnType<typeof makeTempDir>;
const fs = createNodeFsOps();
const tool = createHashlineEditTool({ fs });
const reader = createReadTool({ fs, modelAcceptsImages: () => true, hashLines: true });
const edit = (edits: unknown[]) => runTool(tool, { edits }, makeCtx(tmp.dir));
const file = (rel: string) => readFileSync(join(tmp.dir, rel), "utf8");
const ref = (n: number, text: string) => `${n}#${hash(n, text)}`;
const A = ["const a = 1;", "const b = 2;", "const c = 3;", "}", "const e = 5;"];

beforeAll(async () => {
  hash = await loadLineHasher();
});
beforeEach(() => {
  tmp = makeTempDir();
  writeTree(tmp.dir, { "a.ts": A.join("\n") + "\n", "crlf.txt": "one\r\ntwo\r\n" });
});
afterEach(() => tmp.cleanup());

describe("line hashes", () => {
  it("are xxHash32's low byte in the ZPMQVRWSNKTXJBYH alphabet, seeded by line number only for symbol-only lines", () => {
    // xxHash32("a", 0) = 0x550D7456: low byte 0x56 → R (5) W (6)
    expect(hash(9, "a")).toBe("RW");
    expect(hash(1, "abc  ")).toBe(hash(7, "abc"));
    expect(hash(3, "abc\r")).toBe(hash(3, "abc"));
    expect(hash(1, "}")).not.toBe(hash(2, "}")); // xxHash32("}", 1) vs seed 2 — differ for this input
    expect(hash(1, "x")).toMatch(/^[ZPMQVRWSNKTXJBYH]{2}$/);
  });

  it("read shows N#HH: prefixes in hashline mode", async () => {
    const out = await runTool(reader, { path: "a.ts" }, makeCtx(tmp.dir));
    expect(textOf(out.result).split("\n")).toEqual(A.map((l, i) => `${ref(i + 1, l)}:${l}`));
    expect(reader.description).toContain("LINE#ID");
  });
});

describe("anchors and loc shapes", () => {
  it("parse with leading markers and trailing text", () => {
    expect(parseTag(">>> 12#QV:text")).toEqual({ line: 12, hash: "QV" });
    expect(parseTag("+ 3 # ZP")).toEqual({ line: 3, hash: "ZP" });
  });

  it("report every error text", () => {
    expect(() => parseTag("12")).toThrow('Invalid line reference "12". Expected format "LINE#ID" (e.g. "5#aa").');
    expect(() => parseTag("0#ZZ")).toThrow('Line number must be >= 1, got 0 in "0#ZZ".');
    expect(() => toOp({ path: "a", loc: { append: "x" } })).toThrow("append requires a valid anchor.");
    expect(() => toOp({ path: "a", loc: { prepend: "x" } })).toThrow("prepend requires a valid anchor.");
    expect(() => toOp({ path: "a", loc: { range: { pos: "1#ZZ", end: "nope" } } })).toThrow("range requires valid pos and end anchors.");
    expect(() => toOp({ path: "a", loc: { sideways: 1 } as never })).toThrow("Unknown loc shape. Expected append, prepend, or range.");
  });

  it("strip pasted display prefixes and diff pluses from content", () => {
    expect((toOp({ path: "a", loc: "append", content: ["1#ZZ:x", "2#PP:y"] }) as { lines: string[] }).lines).toEqual(["x", "y"]);
    expect((toOp({ path: "a", loc: "append", content: "+x\n+y\nz\n" }) as { lines: string[] }).lines).toEqual(["x", "y", "z"]);
    expect((toOp({ path: "a", loc: "append", content: "a\r\nb\n" }) as { lines: string[] }).lines).toEqual(["a", "b"]);
  });
});

describe("edit in hashline mode", () => {
  it("replaces a range, inserts around anchors and reports the diff preview and details", async () => {
    const out = await edit([
      { path: "a.ts", loc: { range: { pos: ref(2, A[1]), end: ref(3, A[2]) } }, content: ["const bc = 23;"] },
      { path: "a.ts", loc: { prepend: ref(1, A[0]) }, content: ["// head"] },
      { path: "a.ts", loc: { append: ref(5, A[4]) }, content: "// tail\n" },
    ]);
    expect(out.isError, textOf(out.result)).toBe(false);
    expect(file("a.ts")).toBe(["// head", "const a = 1;", "const bc = 23;", "}", "const e = 5;", "// tail", ""].join("\n"));
    const text = textOf(out.result);
    expect(text).toMatch(/^Updated a\.ts\nChanges: \+3 -2\n\nDiff preview:\n/);
    expect(text).toContain(`+1#${hash(1, "// head")}|// head`);
    expect(text).toContain("-2   |const b = 2;");
    const details = out.result.details as Record<string, unknown>;
    expect(details).toMatchObject({ op: "update", firstChangedLine: 1 });
    expect(details.diff).toContain("+3|const bc = 23;");
  });

  it("validates every anchor before changing anything and reports stale lines with >>> context", async () => {
    const out = await edit([
      { path: "a.ts", loc: { range: { pos: ref(1, A[0]), end: ref(1, A[0]) } }, content: ["x"] },
      { path: "a.ts", loc: { append: `4#${hash(4, "}") === "ZZ" ? "PP" : "ZZ"}` }, content: ["y"] },
    ]);
    expect(out.isError).toBe(true);
    const want = [
      "1 line has changed since last read. Use the updated LINE#ID references shown below (>>> marks changed lines).",
      "",
      ...[2, 3].map((n) => `    ${ref(n, A[n - 1])}:${A[n - 1]}`),
      `>>> ${ref(4, "}")}:}`,
      `    ${ref(5, A[4])}:${A[4]}`,
    ].join("\n");
    expect(textOf(out.result)).toBe(want);
    expect(file("a.ts")).toBe(A.join("\n") + "\n");
  });

  it("says when lines have changed (plural), are out of range, or a range is reversed", async () => {
    writeTree(tmp.dir, { "long.txt": Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join("\n") });
    const stale = (n: number) => `${n}#${hash(n, `line ${n}`) === "ZZ" ? "PP" : "ZZ"}`;
    const two = await runTool(tool, { edits: [1, 9].map((n) => ({ path: "long.txt", loc: { append: stale(n) }, content: ["y"] })) }, makeCtx(tmp.dir));
    expect(textOf(two.result)).toMatch(/^2 lines have changed since last read\./);
    expect(textOf(two.result)).toContain("    ...");
    expect(textOf((await edit([{ path: "a.ts", loc: { append: "9#ZZ" }, content: ["y"] }])).result)).toBe("Line 9 does not exist (file has 5 lines)");
    const reversed = await edit([{ path: "a.ts", loc: { range: { pos: ref(3, A[2]), end: ref(2, A[1]) } }, content: [] }]);
    expect(textOf(reversed.result)).toBe("Range start line 3 must be <= end line 2");
    const empty = await edit([{ path: "a.ts", loc: { append: ref(2, A[1]) }, content: [] }]);
    expect(empty.isError).toBe(true);
    expect(textOf(empty.result)).toContain("has no content to insert");
  });

  it("refuses identical content, removes duplicate edits and deletes ranges with null", async () => {
    const same = await edit([{ path: "a.ts", loc: { range: { pos: ref(2, A[1]), end: ref(2, A[1]) } }, content: [A[1]] }]);
    expect(textOf(same.result)).toMatch(/^No changes made to a\.ts\. The edits produced identical content\.\nEdit 0: replacement for 2#/);
    const dup = { path: "a.ts", loc: { append: ref(1, A[0]) }, content: ["dup"] };
    expect((await edit([dup, dup])).isError).toBe(false);
    expect(file("a.ts").match(/dup/g)).toHaveLength(1);
    await edit([{ path: "a.ts", loc: { range: { pos: ref(1, A[0]), end: ref(2, "dup") } }, content: null }]);
    expect(file("a.ts")).toBe(A.slice(1).join("\n") + "\n");
  });

  it("creates, moves and deletes files; keeps CRLF; refuses notebooks", async () => {
    expect(textOf((await edit([{ path: "new/n.txt", loc: "append", content: ["hi"] }])).result)).toBe("Created new/n.txt");
    expect(file("new/n.txt")).toBe("hi");
    expect(textOf((await edit([{ path: "gone.txt", loc: { append: "1#ZZ" }, content: ["x"] }])).result)).toBe("File not found: gone.txt");
    expect(textOf((await edit([{ path: "new/n.txt", move: "m/n.txt" }])).result)).toBe("Moved new/n.txt to m/n.txt");
    expect(existsSync(join(tmp.dir, "new/n.txt"))).toBe(false);
    expect(textOf((await edit([{ path: "m/n.txt", move: "m/n.txt" }])).result)).toBe("move path is the same as source path");
    expect(textOf((await edit([{ path: "nope.txt", move: "x.txt" }])).result)).toBe("File not found: nope.txt");
    expect(textOf((await edit([{ path: "m/n.txt", delete: true }])).result)).toBe("Deleted m/n.txt");
    expect(existsSync(join(tmp.dir, "m/n.txt"))).toBe(false);
    await edit([{ path: "crlf.txt", loc: { append: ref(1, "one") }, content: ["mid"] }]);
    expect(file("crlf.txt")).toBe("one\r\nmid\r\ntwo\r\n");
    const nb = await edit([{ path: "x.ipynb", loc: "append", content: ["x"] }]);
    expect(textOf(nb.result)).toBe("Cannot edit Jupyter notebooks with the Edit tool. Use the NotebookEdit tool instead.");
  });

  it("edits a file and moves it in one entry; several files stream a partial result", async () => {
    const ctx = makeCtx(tmp.dir);
    const out = await runTool(
      tool,
      {
        edits: [
          { path: "a.ts", loc: { append: ref(1, A[0]) }, content: ["z"], move: "b.ts" },
          { path: "c.txt", loc: "prepend", content: ["c"] },
        ],
      },
      ctx,
    );
    expect(textOf(out.result)).toMatch(/^Moved a\.ts to b\.ts\nChanges: \+1 -0[\s\S]*\n\nCreated c\.txt$/);
    expect(file("b.ts")).toBe([A[0], "z", ...A.slice(1), ""].join("\n"));
    expect(existsSync(join(tmp.dir, "a.ts"))).toBe(false);
    expect(ctx.updates).toHaveLength(1);
  });
});

describe("write in hashline mode", () => {
  it("drops copied N#HH: prefixes when every line has one, and says so", async () => {
    const write = createWriteTool({ fs, stripHashPrefixes: true });
    const out = await runTool(write, { path: "w.ts", content: "1#ZZ:a\n\n3#PP:  b\n" }, makeCtx(tmp.dir));
    expect(textOf(out.result)).toBe("Successfully wrote 7 bytes to w.ts\nNote: auto-stripped hashline display prefixes from content before writing.");
    expect(file("w.ts")).toBe("a\n\n  b\n");
    await runTool(write, { path: "v.ts", content: "1#ZZ:a\nplain\n" }, makeCtx(tmp.dir));
    expect(file("v.ts")).toBe("1#ZZ:a\nplain\n");
  });
});

describe("bottom-up application (property)", () => {
  const sortLine = (op: HashlineOp): number => (op.op === "replace_range" ? op.end.line : "pos" in op ? op.pos.line : 0);

  it("applying non-overlapping valid edits at once equals applying them one by one from the bottom", () => {
    const line = fc.stringMatching(/^[a-z{} ]{0,6}$/);
    const arb = fc.array(line, { minLength: 1, maxLength: 30 }).chain((lines) =>
      fc
        .uniqueArray(fc.integer({ min: 1, max: lines.length }), { minLength: 1, maxLength: Math.min(lines.length, 8) })
        .chain((starts) =>
          fc.tuple(
            fc.constant(lines),
            fc.tuple(
              ...[...starts]
                .sort((a, b) => a - b)
                .map((s, i, all) =>
                  fc.record({
                    kind: fc.constantFrom("range", "append", "prepend"),
                    start: fc.constant(s),
                    // ranges end before the next edit's line
                    end: fc.integer({ min: s, max: (all[i + 1] ?? lines.length + 1) - 1 }),
                    content: fc.array(line, { maxLength: 3 }),
                  }),
                ),
            ),
          ),
        ),
    );
    fc.assert(
      fc.property(arb, ([lines, specs]) => {
        const text = lines.join("\n") + "\n";
        const tag = (n: number, src: string[]) => ({ line: n, hash: hash(n, src[n - 1]) });
        const opsFor = (src: string[]): HashlineOp[] =>
          specs.map((s): HashlineOp => {
            const content = s.content.length ? s.content : ["x"];
            if (s.kind === "range") return { op: "replace_range", pos: tag(s.start, src), end: tag(s.end, src), lines: s.content };
            return { op: s.kind === "append" ? "append_at" : "prepend_at", pos: tag(s.start, src), lines: content };
          });
        const all = applyHashlineOps(text, opsFor(lines), hash).text;
        let current = text;
        for (const op of [...opsFor(lines)].sort((a, b) => sortLine(b) - sortLine(a))) {
          current = applyHashlineOps(current, [op], hash).text;
        }
        expect(all).toBe(current);
      }),
      { numRuns: 200 },
    );
  });
});
