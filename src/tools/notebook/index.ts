// `notebook`: cell edits on Jupyter notebooks (the reference's tool, plus moving cells). The
// file stays valid nbformat: code cells keep `outputs` and `execution_count` (cleared when
// edited), markdown cells have neither, nbformat ≥ 4.5 cells get an `id`.
import { randomBytes } from "node:crypto";
import type { ICell, ICodeCell, IMarkdownCell, INotebookContent, MultilineString } from "@jupyterlab/nbformat";
import { Type, type Static } from "typebox";
import type { FsOps } from "../ops/fs-ops.js";
import { pathArg, resolveToolPath } from "../paths.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import type { WriteGuard } from "../write/index.js";

const DESCRIPTION = `Edit, insert, delete or move cells in Jupyter notebooks (.ipynb). cell_index is 0-based.
- edit: replace the source of cell cell_index with content (cell_type changes its type); a code cell's outputs are cleared.
- insert: a new cell (cell_type code by default, or markdown) with content at position cell_index (cell count = append).
- delete: remove cell cell_index.
- move: move cell cell_index to position new_index.`;

const Params = Type.Object({
  action: Type.Union([Type.Literal("edit"), Type.Literal("insert"), Type.Literal("delete"), Type.Literal("move")], {
    description: "Action to perform on the notebook cell",
  }),
  notebook_path: Type.String({ description: "Path to the .ipynb file (relative or absolute)" }),
  cell_index: Type.Number({ description: "0-based index of the cell to operate on" }),
  content: Type.Optional(Type.String({ description: "New cell content (required for edit/insert)" })),
  cell_type: Type.Optional(Type.Union([Type.Literal("code"), Type.Literal("markdown")], { description: "Cell type for insert (default: code) or edit" })),
  new_index: Type.Optional(Type.Number({ description: "Target position for move (0-based)" })),
});
export type NotebookArgs = Static<typeof Params>;

function splitIntoLines(content: string): string[] {
  return content.split("\n").map((line, i, all) => (i < all.length - 1 ? `${line}\n` : line));
}

const sourceLines = (s: MultilineString): string[] => (Array.isArray(s) ? s : splitIntoLines(s));

function newCell(type: "code" | "markdown", source: string[], withId: boolean): ICell {
  const id = withId ? { id: randomBytes(4).toString("hex") } : {};
  if (type === "markdown") return { ...id, cell_type: "markdown", metadata: {}, source } as IMarkdownCell;
  return { ...id, cell_type: "code", execution_count: null, metadata: {}, outputs: [], source } as ICodeCell;
}

/** `cell` with new source (and type); a code cell's outputs and execution count are cleared. */
function edited(cell: ICell, source: string[], type: "code" | "markdown" | undefined): ICell {
  const { outputs: _o, execution_count: _e, attachments, ...rest } = cell as ICodeCell & { attachments?: unknown };
  const target = type ?? (cell.cell_type === "code" ? "code" : cell.cell_type);
  if (target === "code") return { ...rest, cell_type: "code", execution_count: null, outputs: [], source } as ICodeCell;
  return { ...rest, cell_type: target, source, ...(attachments && target === "markdown" ? { attachments } : {}) } as ICell;
}

export function createNotebookTool(opts: { fs: FsOps; guardWrite?: WriteGuard }): Tool<NotebookArgs> {
  return {
    name: "notebook",
    summary: "Edit, insert, delete or move Jupyter notebook cells",
    label: "Notebook",
    description: DESCRIPTION,
    parameters: jsonSchema(Params),
    effect: "writes-files",
    paths: (a) => pathArg(a, "notebook_path", "file"),
    concurrency: "exclusive",
    nonAbortable: true,
    source: "builtin",
    async execute(args, ctx) {
      const { action, notebook_path: shown, cell_index: index, content } = args;
      const abs = resolveToolPath(shown, ctx.cwd);
      let nb: INotebookContent;
      const st = await opts.fs.stat(abs);
      if (!st || !st.isFile) throw new Error(`Notebook not found: ${shown}`);
      try {
        nb = JSON.parse((await opts.fs.readFile(abs)).toString("utf8")) as INotebookContent;
      } catch {
        throw new Error(`Invalid JSON in notebook: ${shown}`);
      }
      if (!nb || typeof nb !== "object" || !Array.isArray(nb.cells)) throw new Error(`Invalid notebook structure (missing cells array): ${shown}`);
      const count = nb.cells.length;
      if (!Number.isInteger(index)) throw new Error(`Cell index must be an integer, got ${index}`);
      if (action === "insert" ? index < 0 || index > count : index < 0 || index >= count) {
        throw new Error(action === "insert" ? `Cell index ${index} out of range for insert (0-${count}) in ${shown}` : `Cell index ${index} out of range (0-${count - 1}) in ${shown}`);
      }
      if ((action === "edit" || action === "insert") && content === undefined) throw new Error(`Content is required for ${action} action`);
      const withId = nb.nbformat > 4 || (nb.nbformat === 4 && (nb.nbformat_minor ?? 0) >= 5);
      let message: string;
      let cell: ICell;
      switch (action) {
        case "edit":
          cell = nb.cells[index] = edited(nb.cells[index], splitIntoLines(content!), args.cell_type);
          message = `Replaced cell ${index} (${cell.cell_type})`;
          break;
        case "insert":
          cell = newCell(args.cell_type ?? "code", splitIntoLines(content!), withId);
          nb.cells.splice(index, 0, cell);
          message = `Inserted ${cell.cell_type} cell at position ${index}`;
          break;
        case "delete":
          [cell] = nb.cells.splice(index, 1);
          message = `Deleted cell ${index} (${cell.cell_type})`;
          break;
        case "move": {
          const to = args.new_index;
          if (to === undefined || !Number.isInteger(to) || to < 0 || to >= count) throw new Error(`new_index must be a cell position (0-${count - 1}) for move`);
          [cell] = nb.cells.splice(index, 1);
          nb.cells.splice(to, 0, cell);
          message = `Moved cell ${index} (${cell.cell_type}) to position ${to}`;
          break;
        }
      }
      const target = opts.guardWrite ? await opts.guardWrite(abs) : abs;
      await opts.fs.writeFile(target, JSON.stringify(nb, null, 1) + "\n");
      return {
        content: [{ type: "text", text: `${message}. Notebook now has ${nb.cells.length} cells.` }],
        details: { action, cellIndex: index, cellType: cell.cell_type, totalCells: nb.cells.length, cellSource: sourceLines(cell.source) },
      };
    },
  };
}
