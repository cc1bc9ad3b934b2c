import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeFsOps } from "../ops/fs-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf, writeTree } from "../../../test/support/tools.js";
import { createNotebookTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const tool = createNotebookTool({ fs: createNodeFsOps() });
const nb = (args: Record<string, unknown>) => runTool(tool, { notebook_path: "n.ipynb", ...args }, makeCtx(tmp.dir));
const read = () => JSON.parse(readFileSync(join(tmp.dir, "n.ipynb"), "utf8"));
const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: "python3", display_name: "Python 3", language: "python" } },
  cells: [
    { id: "a1", cell_type: "markdown", metadata: {}, source: ["# Title"] },
    { id: "b2", cell_type: "code", metadata: {}, execution_count: 3, outputs: [{ output_type: "stream", name: "stdout", text: ["2\n"] }], source: ["print(1 + 1)"] },
  ],
};

/** The shape nbformat 4.5 requires of every cell. */
function expectValid(cells: Array<Record<string, unknown>>): void {
  for (const c of cells) {
    expect(typeof c.id).toBe("string");
    expect(c.metadata).toEqual(expect.any(Object));
    expect(Array.isArray(c.source)).toBe(true);
    if (c.cell_type === "code") expect(Object.keys(c)).toEqual(expect.arrayContaining(["outputs", "execution_count"]));
    else expect(Object.keys(c)).not.toContain("outputs");
  }
}

beforeEach(() => {
  tmp = makeTempDir();
  writeTree(tmp.dir, { "n.ipynb": JSON.stringify(NOTEBOOK), "bad.ipynb": "{nope" });
});
afterEach(() => tmp.cleanup());

describe("notebook", () => {
  it("edits a code cell: new source, outputs and execution count cleared", async () => {
    const out = await nb({ action: "edit", cell_index: 1, content: "x = 2\nprint(x)" });
    expect(textOf(out.result)).toBe("Replaced cell 1 (code). Notebook now has 2 cells.");
    const cell = read().cells[1];
    expect(cell).toEqual({ id: "b2", cell_type: "code", metadata: {}, execution_count: null, outputs: [], source: ["x = 2\n", "print(x)"] });
    expect(out.result.details).toMatchObject({ action: "edit", cellIndex: 1, cellType: "code", totalCells: 2, cellSource: ["x = 2\n", "print(x)"] });
  });

  it("inserts code and markdown cells with ids, converts a cell's type, moves and deletes cells", async () => {
    expect(textOf((await nb({ action: "insert", cell_index: 2, content: "y = 3" })).result)).toBe("Inserted code cell at position 2. Notebook now has 3 cells.");
    expect(textOf((await nb({ action: "insert", cell_index: 0, content: "intro", cell_type: "markdown" })).result)).toBe("Inserted markdown cell at position 0. Notebook now has 4 cells.");
    await nb({ action: "edit", cell_index: 2, content: "## now markdown", cell_type: "markdown" });
    expect(textOf((await nb({ action: "move", cell_index: 3, new_index: 0 })).result)).toBe("Moved cell 3 (code) to position 0. Notebook now has 4 cells.");
    const cells = read().cells;
    expect(cells.map((c: { cell_type: string; source: string[] }) => [c.cell_type, c.source.join("")])).toEqual([
      ["code", "y = 3"],
      ["markdown", "intro"],
      ["markdown", "# Title"],
      ["markdown", "## now markdown"],
    ]);
    expectValid(cells);
    expect(textOf((await nb({ action: "delete", cell_index: 0 })).result)).toBe("Deleted cell 0 (code). Notebook now has 3 cells.");
    expect(read().metadata).toEqual(NOTEBOOK.metadata);
  });

  it("explains bad input", async () => {
    expect(textOf((await nb({ action: "edit", cell_index: 5, content: "x" })).result)).toBe("Cell index 5 out of range (0-1) in n.ipynb");
    expect(textOf((await nb({ action: "insert", cell_index: 3, content: "x" })).result)).toBe("Cell index 3 out of range for insert (0-2) in n.ipynb");
    expect(textOf((await nb({ action: "edit", cell_index: 0 })).result)).toBe("Content is required for edit action");
    expect(textOf((await nb({ action: "move", cell_index: 0, new_index: 9 })).result)).toBe("new_index must be a cell position (0-1) for move");
    expect(textOf((await nb({ action: "delete", cell_index: 0, notebook_path: "missing.ipynb" })).result)).toBe("Notebook not found: missing.ipynb");
    expect(textOf((await nb({ action: "delete", cell_index: 0, notebook_path: "bad.ipynb" })).result)).toBe("Invalid JSON in notebook: bad.ipynb");
    expect((await nb({ action: "rename", cell_index: 0 })).isError).toBe(true);
  });
});
