import { describe, expect, it } from "vitest";
import { SRC_DIR, oversizedFiles, readSources } from "./import-graph.js";

const HARD_CAP = 800;

describe("file size (800 lines hard cap; docs/architecture.md)", () => {
  it(`has no non-test source file over ${HARD_CAP} lines`, () => {
    const over = oversizedFiles(readSources(SRC_DIR), HARD_CAP);
    expect(over, `Split these files:\n${over.join("\n")}`).toEqual([]);
  });

  it("the checker lists oversized files with their line counts", () => {
    const files = [
      { path: "a/big.ts", text: "x\n".repeat(801) },
      { path: "a/ok.ts", text: "x\n".repeat(800) },
      { path: "a/nonl.ts", text: "x\n".repeat(800) + "y" },
    ];
    expect(oversizedFiles(files, HARD_CAP)).toEqual(["src/a/big.ts: 801 lines (max 800)", "src/a/nonl.ts: 801 lines (max 800)"]);
  });
});
