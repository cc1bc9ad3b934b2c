// Diagnostics, locations and symbols as short text for the model.
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Diagnostic, Location, LocationLink } from "vscode-languageserver-protocol";

const SEVERITY = ["error", "error", "warning", "info", "hint"] as const;
const MESSAGE_CHARS = 300;

/** `file:///a/b.ts` → the path relative to `cwd` when inside it, else absolute; other URIs as they are. */
export function displayPath(uri: string, cwd: string): string {
  let abs: string;
  try {
    abs = fileURLToPath(uri);
  } catch {
    return uri;
  }
  return shortPath(abs, cwd);
}

/** An absolute path relative to `cwd` when inside it, else as it is. */
export function shortPath(abs: string, cwd: string): string {
  const rel = path.relative(cwd, abs);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : abs;
}

export function severityOf(d: Diagnostic): (typeof SEVERITY)[number] {
  return SEVERITY[d.severity ?? 1] ?? "error";
}

/** One line: `a.ts:3:7 error: message (ts 2322)`; the message on one line, cut at 300 characters. */
export function diagnosticLine(d: Diagnostic, file: string): string {
  const raw: string = typeof d.message === "string" ? d.message : d.message.value;
  const flat = raw.replace(/\s*\n\s*/g, " ").trim();
  const message = flat.length > MESSAGE_CHARS ? `${flat.slice(0, MESSAGE_CHARS)}…` : flat;
  const origin = [d.source, d.code].filter((x) => x !== undefined && x !== "").join(" ");
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severityOf(d)}: ${message}${origin ? ` (${origin})` : ""}`;
}

/** Errors first, then by position. */
export function sortDiagnostics(list: Diagnostic[]): Diagnostic[] {
  return [...list].sort((a, b) => (a.severity ?? 1) - (b.severity ?? 1) || a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** "2 errors, 1 warning" (only kinds present). */
export function countText(list: Diagnostic[]): string {
  const counts = new Map<string, number>();
  for (const d of list) counts.set(severityOf(d), (counts.get(severityOf(d)) ?? 0) + 1);
  return [...counts].map(([kind, n]) => `${n} ${kind}${n === 1 ? "" : "s"}`).join(", ");
}

/** Up to `max` lines, then "… N more not shown". */
export function diagnosticLines(list: Diagnostic[], file: string, max: number): string[] {
  const sorted = sortDiagnostics(list);
  const lines = sorted.slice(0, max).map((d) => diagnosticLine(d, file));
  if (sorted.length > max) lines.push(`… ${sorted.length - max} more not shown`);
  return lines;
}

/** A definition/reference answer as plain locations. */
export function locationsOf(result: Location | Location[] | LocationLink[] | null | undefined): Location[] {
  if (!result) return [];
  const list = Array.isArray(result) ? result : [result];
  return list.flatMap((l): Location[] => {
    if ("targetUri" in l) return [{ uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange }];
    if ("uri" in l && l.range) return [l];
    return [];
  });
}
