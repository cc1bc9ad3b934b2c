// `edit` in hashline mode: edits anchored on `LINE#ID` references that `read`
// prints, validated before anything changes and applied bottom-up; file delete and move.
import { dirname } from "node:path";
import { Type, type Static } from "typebox";
import type { AgentToolResult } from "../../shared/types.js";
import type { FsOps } from "../ops/fs-ops.js";
import { pathArg, resolveToolPath } from "../paths.js";
import { jsonSchema } from "../schema.js";
import type { Tool, ToolContext, ToolPath } from "../types.js";
import type { WriteGuard } from "../write/index.js";
import { withNote, type FileObserver } from "../write/file-observer.js";
import { contentLines, toOp, type HashlineEntry } from "./anchors.js";
import { applyHashlineOps, identicalContentError } from "./apply.js";
import { loadLineHasher, type LineHasher } from "./line-hash.js";

export { formatHashLines, loadLineHasher, type LineHasher } from "./line-hash.js";

const DESCRIPTION = `Edit files by line anchors. read shows every line as LINE#ID:text (e.g. 12#QV:const x = 1;); an anchor is the LINE#ID part. Each entry of edits names a path and a loc:
- {"range": {"pos": "12#QV", "end": "14#ZP"}} replaces lines 12..14 inclusive with content (content null or [] deletes them);
- {"append": "12#QV"} inserts content after line 12, {"prepend": "12#QV"} before it;
- "append" / "prepend" add content at the end / start of the file (also creates a missing file).
content is an array of lines (preferred) or one string; never include the LINE#ID: prefixes. Anchors always refer to the file as you last read it: several edits of one file in one call need no renumbering. {"path", "delete": true} deletes a file; {"path", "move": "new/path"} renames it (combinable with edits). If a line changed since you read it, nothing is applied and the error shows the current anchors (>>> marks changed lines).`;

const Content = Type.Union([Type.Array(Type.String()), Type.String(), Type.Null()], { description: "New lines (array preferred); null deletes the range" });
const Loc = Type.Union(
  [
    Type.Literal("append"),
    Type.Literal("prepend"),
    Type.Object({ append: Type.String({ description: "anchor LINE#ID" }) }),
    Type.Object({ prepend: Type.String({ description: "anchor LINE#ID" }) }),
    Type.Object({
      range: Type.Object({
        pos: Type.String({ description: "first line to replace (inclusive), LINE#ID" }),
        end: Type.String({ description: "last line to replace (inclusive), LINE#ID" }),
      }),
    }),
  ],
  { description: "Where the content goes" },
);
const Entry = Type.Object(
  {
    path: Type.String({ description: "File path" }),
    loc: Type.Optional(Loc),
    content: Type.Optional(Content),
    delete: Type.Optional(Type.Boolean({ description: "Delete the file" })),
    move: Type.Optional(Type.String({ description: "Move/rename the file to this path" })),
  },
  { additionalProperties: false },
);
const Params = Type.Object({ edits: Type.Array(Entry, { description: "Edits, grouped by path" }) }, { additionalProperties: false });
export type HashlineEditArgs = Static<typeof Params>;

export interface HashlineEditOptions {
  fs: FsOps;
  guardWrite?: WriteGuard;
  /** Told of every file created or updated; its note ends that file's part of the result. */
  observer?: FileObserver;
}

interface FileResult {
  text: string;
  details: Record<string, unknown>;
}

export function createHashlineEditTool(opts: HashlineEditOptions): Tool<HashlineEditArgs> {
  const resolve = async (p: string, cwd: string): Promise<string> => {
    const abs = resolveToolPath(p, cwd);
    return opts.guardWrite ? opts.guardWrite(abs) : abs;
  };
  return {
    name: "edit",
    label: "Edit",
    description: DESCRIPTION,
    parameters: jsonSchema(Params),
    effect: "writes-files",
    paths: hashlinePaths,
    concurrency: "exclusive",
    nonAbortable: true,
    source: "builtin",
    async execute(args, ctx) {
      const hash = await loadLineHasher();
      const groups = new Map<string, HashlineEntry[]>();
      for (const e of args.edits as HashlineEntry[]) groups.set(e.path, [...(groups.get(e.path) ?? []), e]);
      if (groups.size === 0) throw new Error("edits must contain at least one entry.");
      const results: FileResult[] = [];
      for (const [path, entries] of groups) {
        const observe = (abs: string, content: string) => opts.observer?.afterWrite({ path: abs, content, kind: "edit" }, ctx.signal) ?? Promise.resolve(undefined);
        results.push(await editFile(opts.fs, path, entries, ctx, hash, resolve, observe));
        if (results.length < groups.size) ctx.onUpdate(combine(results));
      }
      return combine(results);
    },
  };
}

/** Every file an edit writes: each entry's path, and where a `move` puts it. */
function hashlinePaths(args: Record<string, unknown>): ToolPath[] {
  const edits = Array.isArray(args.edits) ? (args.edits as unknown[]) : [];
  return edits.flatMap((e) => (e && typeof e === "object" ? [...pathArg(e as Record<string, unknown>, "path", "file"), ...pathArg(e as Record<string, unknown>, "move", "file")] : []));
}

function combine(results: FileResult[]): AgentToolResult {
  if (results.length === 1) return { content: [{ type: "text", text: results[0].text }], details: results[0].details };
  return {
    content: [{ type: "text", text: results.map((r) => r.text).join("\n\n") }],
    details: { diff: results.map((r) => r.details.diff).filter(Boolean).join("\n"), perFileResults: results.map((r) => r.details) },
  };
}

async function editFile(
  fs: FsOps,
  path: string,
  entries: HashlineEntry[],
  ctx: ToolContext,
  hash: LineHasher,
  resolve: (p: string, cwd: string) => Promise<string>,
  observe: (abs: string, content: string) => Promise<string | undefined>,
): Promise<FileResult> {
  const deleteFile = entries.some((e) => e.delete);
  const move = entries.find((e) => e.move)?.move;
  const content = entries.filter((e) => e.loc != null);
  if (path.endsWith(".ipynb") && content.length > 0) {
    throw new Error("Cannot edit Jupyter notebooks with the Edit tool. Use the NotebookEdit tool instead.");
  }
  const abs = await resolve(path, ctx.cwd);
  const target = move ? await resolve(move, ctx.cwd) : undefined;
  if (target === abs) throw new Error("move path is the same as source path");
  const st = await fs.stat(abs);
  if (st && !st.isFile) throw new Error(`Not a file: ${path}`);
  const unlink = fs.unlink ?? (async (p: string) => (await import("node:fs/promises")).unlink(p));
  const rename = fs.rename ?? (async (a: string, b: string) => (await import("node:fs/promises")).rename(a, b));

  if (deleteFile) {
    if (st) await unlink(abs);
    return { text: `Deleted ${path}`, details: { diff: "", op: "delete" } };
  }
  if (target && content.length === 0) {
    if (!st) throw new Error(`File not found: ${path}`);
    await fs.mkdir(dirname(target));
    await rename(abs, target);
    return { text: `Moved ${path} to ${move}`, details: { diff: "", op: "update", move } };
  }
  if (!st) {
    const lines: string[] = [];
    for (const e of content) {
      if (e.loc === "append") lines.push(...contentLines(e.content));
      else if (e.loc === "prepend") lines.unshift(...contentLines(e.content));
      else throw new Error(`File not found: ${path}`);
    }
    const dest = target ?? abs;
    await fs.mkdir(dirname(dest));
    await fs.writeFile(dest, lines.join("\n"));
    const note = await observe(dest, lines.join("\n"));
    return { text: withNote(`Created ${target ? move : path}`, note), details: { diff: "", op: "create", ...(move ? { move } : {}) } };
  }

  const ops = content.map(toOp);
  const raw = (await fs.readFile(abs)).toString("utf8");
  const bom = raw.startsWith("\uFEFF") ? "\uFEFF" : "";
  const crlf = raw.includes("\r\n");
  const before = raw.slice(bom.length).replace(/\r\n/g, "\n");
  const result = applyHashlineOps(before, ops, hash);
  if (result.text === before && !move) throw identicalContentError(path, result.noopEdits);
  // The `diff` package comes with the preview, on first use (before writing: a failed load changes nothing).
  const { hashlineDiff } = await import("./preview.js");
  const d = hashlineDiff(before, result.text, hash);
  const dest = target ?? abs;
  if (target) await fs.mkdir(dirname(target));
  const written = bom + (crlf ? result.text.replace(/\n/g, "\r\n") : result.text);
  await fs.writeFile(dest, written);
  if (target) await unlink(abs);
  const note = await observe(dest, written);

  const head = move ? `Moved ${path} to ${move}` : `Updated ${path}`;
  const summary = `Changes: +${d.added} -${d.removed}${d.preview ? "" : " (no textual diff preview)"}`;
  const previewBlock = d.preview ? `\n\nDiff preview:\n${d.preview}` : "";
  const warnings = result.warnings.length ? `\n\nWarnings:\n${result.warnings.join("\n")}` : "";
  return {
    text: withNote(`${head}\n${summary}${previewBlock}${warnings}`, note),
    details: { diff: d.diff, firstChangedLine: result.firstChangedLine, op: "update", ...(move ? { move } : {}) },
  };
}
