// `edit`: exact text replacement, one edit or several non-overlapping ones (pi).
import { Type, type Static } from "typebox";
import type { FsOps } from "../ops/fs-ops.js";
import { pathArg, resolveToolPath } from "../paths.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import type { WriteGuard } from "../write/index.js";
import { withNote, type FileObserver } from "../write/file-observer.js";
import { findUnique } from "./match.js";

const EDIT_DESCRIPTION = `Replace exact text in a file. oldText must match the file exactly (whitespace and newlines too) and occur once: include enough surrounding lines to make it unique. Several changes to one file: edits: [{oldText, newText}, ...], each matched against the original file, none overlapping.`;

// The fields mean what the top-level oldText / newText say: not described twice.
const EditItem = Type.Object({ oldText: Type.String(), newText: Type.String() });
const EditParams = Type.Object({
  path: Type.String(),
  oldText: Type.Optional(Type.String()),
  newText: Type.Optional(Type.String()),
  edits: Type.Optional(Type.Array(EditItem, { minItems: 1 })),
});
export type EditArgs = Static<typeof EditParams>;
type EditItemT = Static<typeof EditItem>;

interface Span {
  index: number;
  length: number;
  newText: string;
  n: number;
}

function editsOf(args: EditArgs): EditItemT[] {
  const list: EditItemT[] = [];
  if (args.oldText !== undefined || args.newText !== undefined) {
    if (args.oldText === undefined || args.newText === undefined) throw new Error("oldText and newText must be given together.");
    list.push({ oldText: args.oldText, newText: args.newText });
  }
  if (args.edits) list.push(...args.edits);
  if (list.length === 0) throw new Error("Provide oldText and newText, or edits: [{oldText, newText}].");
  return list;
}

function locate(content: string, edits: EditItemT[], path: string): Span[] {
  const multi = edits.length > 1;
  const spans = edits.map((e, n): Span => {
    const where = multi ? `edits[${n}]: ` : "";
    if (e.oldText === "") throw new Error(`${where}oldText must not be empty.`);
    const m = findUnique(content, e.oldText.replace(/\r\n/g, "\n"));
    if (m.kind === "none") {
      throw new Error(`${where}Could not find the exact text in ${path}. The old text must match exactly including all whitespace and newlines.`);
    }
    if (m.kind === "many") {
      throw new Error(`${where}Found ${m.count} occurrences of the text in ${path}. The text must be unique. Please provide more context to make it unique.`);
    }
    return { index: m.index, length: m.length, newText: e.newText.replace(/\r\n/g, "\n"), n };
  });
  const sorted = [...spans].sort((a, b) => a.index - b.index);
  for (let i = 1; i < sorted.length; i++) {
    const prev = sorted[i - 1];
    if (prev.index + prev.length > sorted[i].index) {
      throw new Error(`edits[${prev.n}] and edits[${sorted[i].n}] overlap in ${path}. Merge them into one edit.`);
    }
  }
  return sorted;
}

function applySpans(content: string, spans: Span[]): string {
  let out = content;
  for (let i = spans.length - 1; i >= 0; i--) {
    const s = spans[i];
    out = out.slice(0, s.index) + s.newText + out.slice(s.index + s.length);
  }
  return out;
}

export function createEditTool(opts: { fs: FsOps; guardWrite?: WriteGuard; observer?: FileObserver }): Tool<EditArgs> {
  return {
    name: "edit",
    label: "Edit",
    description: EDIT_DESCRIPTION,
    parameters: jsonSchema(EditParams),
    effect: "writes-files",
    paths: (a) => pathArg(a, "path", "file"),
    concurrency: "exclusive",
    nonAbortable: true,
    source: "builtin",
    async execute(args, ctx) {
      const edits = editsOf(args);
      const abs = opts.guardWrite ? await opts.guardWrite(resolveToolPath(args.path, ctx.cwd)) : resolveToolPath(args.path, ctx.cwd);
      const st = await opts.fs.stat(abs);
      if (!st || !st.isFile) throw new Error(st ? `Not a file: ${args.path}` : `File not found: ${args.path}`);
      const raw = (await opts.fs.readFile(abs)).toString("utf8");
      const bom = raw.startsWith("\uFEFF") ? "\uFEFF" : "";
      const crlf = raw.includes("\r\n");
      const before = raw.slice(bom.length).replace(/\r\n/g, "\n");
      const after = applySpans(before, locate(before, edits, args.path));
      if (after === before) {
        throw new Error(`No changes made to ${args.path}. The replacement produced identical content.`);
      }
      // The `diff` package is imported on first use (before writing, so a load failure changes nothing).
      const { firstChangedLine, unifiedDiff } = await import("./diff.js");
      const written = bom + (crlf ? after.replace(/\n/g, "\r\n") : after);
      await opts.fs.writeFile(abs, written);
      const text = edits.length > 1 ? `Successfully applied ${edits.length} edits to ${args.path}.` : `Successfully replaced text in ${args.path}.`;
      const observed = await opts.observer?.afterWrite({ path: abs, content: written, kind: "edit" }, ctx.signal);
      return {
        content: [{ type: "text", text: withNote(text, observed) }],
        details: { diff: unifiedDiff(args.path, before, after), firstChangedLine: firstChangedLine(before, after) },
      };
    },
  };
}
