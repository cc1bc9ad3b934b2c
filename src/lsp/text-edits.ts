// Applying LSP text edits to a string. Positions are a 0-based line and a UTF-16 offset in it
// (the encoding pith announces), so JavaScript string indices serve directly; lines end at
// "\n", "\r\n" or "\r". Edits are applied from the end, and must not overlap.
import type { Position, TextEdit } from "vscode-languageserver-protocol";

/** Start offset of every line of `text`. */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) continue; // "\r\n": the "\n" ends the line
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

/** The string offset of a position (clamped to the line and the text, as the protocol asks). */
function offsetOf(text: string, starts: number[], p: Position): number {
  if (p.line >= starts.length) return text.length;
  const start = starts[p.line];
  const next = p.line + 1 < starts.length ? starts[p.line + 1] : text.length;
  let end = next;
  if (end > start && text[end - 1] === "\n") end--;
  if (end > start && text[end - 1] === "\r") end--;
  return Math.min(start + Math.max(0, p.character), end);
}

/** `text` with `edits` applied; throws when two edits overlap. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text);
  const spans = edits
    .map((e, n) => ({ from: offsetOf(text, starts, e.range.start), to: offsetOf(text, starts, e.range.end), text: e.newText, n }))
    .sort((a, b) => a.from - b.from || a.n - b.n);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i].from < spans[i - 1].to) throw new Error("the server sent overlapping edits");
  }
  let out = text;
  for (let i = spans.length - 1; i >= 0; i--) out = out.slice(0, spans[i].from) + spans[i].text + out.slice(spans[i].to);
  return out;
}

/** The text of line `line` (0-based) without its line break, or undefined past the end. */
export function lineText(text: string, line: number): string | undefined {
  const starts = lineStarts(text);
  if (line < 0 || line >= starts.length) return undefined;
  const end = line + 1 < starts.length ? starts[line + 1] : text.length;
  return text.slice(starts[line], end).replace(/\r?\n$|\r$/, "");
}
