// Applying anchored operations to a file's lines: every anchor is checked
// before anything changes, stale hashes are reported together with context, duplicates are
// dropped, and the rest is applied bottom-up so every anchor refers to the file as last read.
import type { Anchor, HashlineOp } from "./anchors.js";
import type { LineHasher } from "./line-hash.js";

const MISMATCH_CONTEXT = 2;

export interface NoopEdit {
  editIndex: number;
  loc: string;
  current: string;
}

export interface ApplyResult {
  text: string;
  firstChangedLine: number | undefined;
  warnings: string[];
  noopEdits: NoopEdit[];
}

/** Anchors whose hash no longer matches, with the changed lines ±2 in display format. */
export class HashlineMismatchError extends Error {
  constructor(readonly mismatches: Array<{ line: number; expected: string; actual: string }>, fileLines: string[], hash: LineHasher) {
    super(mismatchMessage(mismatches.map((m) => m.line), fileLines, hash));
    this.name = "HashlineMismatchError";
  }
}

function mismatchMessage(lines: number[], fileLines: string[], hash: LineHasher): string {
  const changed = new Set(lines);
  const shown = new Set<number>();
  for (const n of changed) {
    for (let i = Math.max(1, n - MISMATCH_CONTEXT); i <= Math.min(fileLines.length, n + MISMATCH_CONTEXT); i++) shown.add(i);
  }
  const k = changed.size;
  const out = [`${k} line${k > 1 ? "s have" : " has"} changed since last read. Use the updated LINE#ID references shown below (>>> marks changed lines).`, ""];
  let prev = -1;
  for (const n of [...shown].sort((a, b) => a - b)) {
    if (prev !== -1 && n > prev + 1) out.push("    ...");
    prev = n;
    const text = fileLines[n - 1];
    out.push(`${changed.has(n) ? ">>> " : "    "}${n}#${hash(n, text)}:${text}`);
  }
  return out.join("\n");
}

function validate(ops: HashlineOp[], fileLines: string[], hash: LineHasher): void {
  const mismatches: Array<{ line: number; expected: string; actual: string }> = [];
  const check = (ref: Anchor): void => {
    if (ref.line < 1 || ref.line > fileLines.length) throw new Error(`Line ${ref.line} does not exist (file has ${fileLines.length} lines)`);
    const actual = hash(ref.line, fileLines[ref.line - 1]);
    if (actual !== ref.hash && !mismatches.some((m) => m.line === ref.line)) mismatches.push({ line: ref.line, expected: ref.hash, actual });
  };
  for (const op of ops) {
    if (op.op === "replace_range") {
      check(op.pos);
      check(op.end);
      if (op.pos.line > op.end.line) throw new Error(`Range start line ${op.pos.line} must be <= end line ${op.end.line}`);
    } else if (op.op === "append_at" || op.op === "prepend_at") {
      check(op.pos);
      if (op.lines.length === 0) {
        const which = op.op === "append_at" ? "append" : "prepend";
        throw new Error(`${which} at ${op.pos.line}#${op.pos.hash} has no content to insert. Give content lines, or use range to delete lines.`);
      }
    }
  }
  if (mismatches.length > 0) throw new HashlineMismatchError(mismatches, fileLines, hash);
}

/** `\t` typed as two characters at the start of lines (and no real tab anywhere) becomes a tab. */
function fixEscapedTabs(ops: HashlineOp[], warnings: string[]): void {
  for (const op of ops) {
    if (!op.lines.some((l) => l.includes("\\t")) || op.lines.some((l) => l.includes("\t"))) continue;
    let fixed = 0;
    const lines = op.lines.map((l) =>
      l.replace(/^((?:\\t)+)/, (esc) => {
        fixed += esc.length / 2;
        return "\t".repeat(esc.length / 2);
      }),
    );
    if (fixed === 0) continue;
    op.lines = lines;
    warnings.push("Auto-corrected escaped tab indentation in edit: converted leading \\t sequence(s) to real tab characters");
  }
}

function boundaryWarning(op: HashlineOp, original: string[], hash: LineHasher, warnings: string[]): void {
  if (op.op !== "replace_range" || op.lines.length === 0 || op.end.line >= original.length) return;
  const next = original[op.end.line];
  const last = op.lines[op.lines.length - 1].trim();
  if (last.length === 0 || last !== next.trim()) return;
  const tag = `${op.end.line + 1}#${hash(op.end.line + 1, next)}`;
  warnings.push(
    `Possible boundary duplication: your last replacement line \`${last}\` is identical to the next surviving line ${tag}. If you meant to replace the entire block, set \`end\` to ${tag} instead.`,
  );
}

function opKey(op: HashlineOp): string {
  switch (op.op) {
    case "replace_range":
      return `r:${op.pos.line}:${op.end.line}`;
    case "append_at":
      return `a:${op.pos.line}`;
    case "prepend_at":
      return `p:${op.pos.line}`;
    case "append_file":
      return "eof";
    case "prepend_file":
      return "bof";
  }
}

/** Bottom-up order: highest line first; at one line, replace before append before prepend; then input order. */
function sortKey(op: HashlineOp, lineCount: number): [number, number] {
  switch (op.op) {
    case "replace_range":
      return [op.end.line, 0];
    case "append_at":
      return [op.pos.line, 1];
    case "prepend_at":
      return [op.pos.line, 2];
    case "append_file":
      return [lineCount + 1, 1];
    case "prepend_file":
      return [0, 2];
  }
}

/** Applies `ops` to LF-normalised `text`. Throws (changing nothing) when any anchor is invalid. */
export function applyHashlineOps(text: string, input: HashlineOp[], hash: LineHasher): ApplyResult {
  // A final newline ends the last line; it is not a line of its own (as `read` numbers them).
  const trailingNewline = text.endsWith("\n");
  const lines = (trailingNewline ? text.slice(0, -1) : text).split("\n");
  const original = [...lines];
  const ops = input.map((op) => ({ ...op, lines: [...op.lines] }));
  const warnings: string[] = [];
  const noopEdits: NoopEdit[] = [];
  validate(ops, lines, hash);
  fixEscapedTabs(ops, warnings);
  for (const op of ops) boundaryWarning(op, original, hash, warnings);

  const seen = new Set<string>();
  const unique = ops
    .map((op, idx) => ({ op, idx }))
    .filter(({ op }) => {
      const key = `${opKey(op)}:${op.lines.join("\n")}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  const ordered = unique
    .map((e) => ({ ...e, key: sortKey(e.op, lines.length) }))
    .sort((a, b) => b.key[0] - a.key[0] || a.key[1] - b.key[1] || a.idx - b.idx);

  let first: number | undefined;
  const changed = (n: number): void => {
    if (first === undefined || n < first) first = n;
  };
  const emptyFile = (): boolean => lines.length === 1 && lines[0] === "";
  for (const { op, idx } of ordered) {
    switch (op.op) {
      case "replace_range": {
        const count = op.end.line - op.pos.line + 1;
        const old = original.slice(op.pos.line - 1, op.end.line);
        if (old.length === op.lines.length && old.every((l, i) => l === op.lines[i])) {
          noopEdits.push({ editIndex: idx, loc: `${op.pos.line}#${op.pos.hash}`, current: old.join("\n") });
          break;
        }
        lines.splice(op.pos.line - 1, count, ...op.lines);
        changed(op.pos.line);
        break;
      }
      case "append_at":
        lines.splice(op.pos.line, 0, ...op.lines);
        changed(op.pos.line + 1);
        break;
      case "prepend_at":
        lines.splice(op.pos.line - 1, 0, ...op.lines);
        changed(op.pos.line);
        break;
      case "append_file":
      case "prepend_file": {
        const atEnd = op.op === "append_file";
        if (op.lines.length === 0) {
          noopEdits.push({ editIndex: idx, loc: atEnd ? "EOF" : "BOF", current: "" });
          break;
        }
        // an empty file is one empty line, which the content replaces
        const at = emptyFile() || !atEnd ? 0 : lines.length;
        lines.splice(at, emptyFile() ? 1 : 0, ...op.lines);
        changed(at + 1);
        break;
      }
    }
  }
  const out = lines.length === 0 ? "" : lines.join("\n") + (trailingNewline ? "\n" : "");
  return { text: out, firstChangedLine: first, warnings, noopEdits };
}

/** The error for edits that changed nothing, with a note per edit that reproduced its lines. */
export function identicalContentError(path: string, noopEdits: NoopEdit[]): Error {
  let text = `No changes made to ${path}. The edits produced identical content.`;
  if (noopEdits.length > 0) {
    text += "\n" + noopEdits.map((e) => `Edit ${e.editIndex}: replacement for ${e.loc} is identical to current content:\n  ${e.loc}| ${e.current}`).join("\n");
  }
  return new Error(text);
}
