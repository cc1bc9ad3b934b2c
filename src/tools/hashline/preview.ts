// The numbered diff of a hashline edit (`details.diff`) and the compact preview the model reads:
// long unchanged runs and long additions/removals collapse, kept lines carry their new LINE#ID.
// Loaded on first use with the `diff` package.
import { diffLines } from "diff";
import type { LineHasher } from "./line-hash.js";

const CONTEXT = 4;

interface Row {
  kind: " " | "+" | "-" | "...";
  oldN: number;
  newN: number;
  text: string;
}

function splitLines(value: string): string[] {
  const lines = value.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

function rows(before: string, after: string): Row[] {
  const parts = diffLines(before, after);
  const out: Row[] = [];
  let oldN = 1;
  let newN = 1;
  let lastWasChange = false;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const lines = splitLines(part.value);
    if (part.added || part.removed) {
      for (const text of lines) out.push(part.added ? { kind: "+", oldN, newN: newN++, text } : { kind: "-", oldN: oldN++, newN, text });
      lastWasChange = true;
      continue;
    }
    const nextIsChange = i < parts.length - 1 && (parts[i + 1].added || parts[i + 1].removed);
    if (!lastWasChange && !nextIsChange) {
      oldN += lines.length;
      newN += lines.length;
      continue;
    }
    const skipStart = lastWasChange ? 0 : Math.max(0, lines.length - CONTEXT);
    let shown = lines.slice(skipStart);
    const skipEnd = !nextIsChange && shown.length > CONTEXT ? shown.length - CONTEXT : 0;
    if (skipEnd) shown = shown.slice(0, CONTEXT);
    const skip = (n: number): void => {
      if (n === 0) return;
      out.push({ kind: "...", oldN, newN, text: "..." });
      oldN += n;
      newN += n;
    };
    skip(skipStart);
    for (const text of shown) out.push({ kind: " ", oldN: oldN++, newN: newN++, text });
    skip(skipEnd);
    lastWasChange = false;
  }
  return out;
}

const count = (text: string): number => Math.max(1, splitLines(text).length);

export interface HashlineDiff {
  /** Numbered diff: `+N|text`, `-N|text`, ` N|text`, ` N|...` for skipped lines. */
  diff: string;
  preview: string;
  added: number;
  removed: number;
}

function collapse(lines: string[], max: number, label: string, where: "start" | "end" | "middle"): string[] {
  const note = (n: number): string => ` ... ${n} more ${label} lines`;
  if (where === "middle") return lines.length <= max * 2 ? lines : [...lines.slice(0, max), note(lines.length - max * 2), ...lines.slice(-max)];
  if (lines.length <= max) return lines;
  return where === "start" ? [...lines.slice(0, max), note(lines.length - max)] : [note(lines.length - max), ...lines.slice(-max)];
}

export function hashlineDiff(before: string, after: string, hash: LineHasher, maxPreviewLines = 16): HashlineDiff {
  const all = rows(before, after);
  const width = String(Math.max(count(before), count(after))).length;
  const pad = (n: number): string => String(n).padStart(width, " ");
  const diff = all.map((r) => (r.kind === "..." ? ` ${pad(r.oldN)}|...` : `${r.kind}${pad(r.kind === "+" ? r.newN : r.oldN)}|${r.text}`)).join("\n");

  const runs: Array<{ kind: Row["kind"]; lines: string[] }> = [];
  for (const r of all) {
    const text =
      r.kind === "..." ? ` ${pad(r.oldN)}|...` : r.kind === "-" ? `-${pad(r.oldN)}   |${r.text}` : `${r.kind}${pad(r.newN)}#${hash(r.newN, r.text)}|${r.text}`;
    const prev = runs[runs.length - 1];
    if (prev && prev.kind === r.kind) prev.lines.push(text);
    else runs.push({ kind: r.kind, lines: [text] });
  }
  const out: string[] = [];
  let added = 0;
  let removed = 0;
  runs.forEach((run, i) => {
    if (run.kind === "+") added += run.lines.length;
    if (run.kind === "-") removed += run.lines.length;
    if (run.kind === "...") out.push(...run.lines);
    else if (run.kind === "+") out.push(...collapse(run.lines, 2, "added", "start"));
    else if (run.kind === "-") out.push(...collapse(run.lines, 2, "removed", "start"));
    else out.push(...collapse(run.lines, 2, "unchanged", i === 0 ? "end" : i === runs.length - 1 ? "start" : "middle"));
  });
  const preview = out.length > maxPreviewLines ? [...out.slice(0, maxPreviewLines), ` ... ${out.length - maxPreviewLines} more preview lines`].join("\n") : out.join("\n");
  return { diff, preview, added, removed };
}
