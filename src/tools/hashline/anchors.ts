// Hashline edit entries as the model sends them, turned into anchored operations:
// anchor parsing, content clean-up and the loc shapes, each with the reference's error texts.

export interface Anchor {
  line: number;
  hash: string;
}

export type HashlineOp =
  | { op: "replace_range"; pos: Anchor; end: Anchor; lines: string[] }
  | { op: "append_at"; pos: Anchor; lines: string[] }
  | { op: "prepend_at"; pos: Anchor; lines: string[] }
  | { op: "append_file"; lines: string[] }
  | { op: "prepend_file"; lines: string[] };

export type HashlineLoc = "append" | "prepend" | { append: string } | { prepend: string } | { range: { pos: string; end: string } };

export interface HashlineEntry {
  path: string;
  loc?: HashlineLoc;
  content?: string[] | string | null;
  delete?: boolean;
  move?: string;
}

const TAG = /^\s*[>+-]*\s*(\d+)\s*#\s*([ZPMQVRWSNKTXJBYH]{2})/;
const HASH_PREFIX = /^\s*(?:>>>|>>)?\s*(?:\+?\s*(?:\d+\s*#\s*|#\s*)|\+)\s*[ZPMQVRWSNKTXJBYH]{2}:/;
const PLUS_HASH_PREFIX = /^\s*(?:>>>|>>)?\s*\+\s*(?:\d+\s*#\s*|#\s*)?[ZPMQVRWSNKTXJBYH]{2}:/;
const DIFF_PLUS = /^[+](?![+])/;

/** `"12#QV"` (optionally `>>> 12#QV:text`) → {line, hash}. */
export function parseTag(ref: string): Anchor {
  const m = TAG.exec(ref);
  if (!m) throw new Error(`Invalid line reference "${ref}". Expected format "LINE#ID" (e.g. "5#aa").`);
  const line = Number.parseInt(m[1], 10);
  if (line < 1) throw new Error(`Line number must be >= 1, got ${line} in "${ref}".`);
  return { line, hash: m[2] };
}

function tryTag(ref: unknown): Anchor | undefined {
  if (typeof ref !== "string") return undefined;
  try {
    return parseTag(ref);
  } catch {
    return undefined;
  }
}

/**
 * Drops pasted display prefixes: `N#HH:` when every non-empty line has one, else a diff `+`
 * when at least half of the non-empty lines start with one.
 */
export function stripNewLinePrefixes(lines: string[]): string[] {
  let nonEmpty = 0;
  let hash = 0;
  let plusHash = 0;
  let plus = 0;
  for (const line of lines) {
    if (line.length === 0) continue;
    nonEmpty++;
    if (HASH_PREFIX.test(line)) hash++;
    if (PLUS_HASH_PREFIX.test(line)) plusHash++;
    if (DIFF_PLUS.test(line)) plus++;
  }
  if (nonEmpty === 0) return lines;
  const stripHash = hash === nonEmpty;
  const stripPlus = !stripHash && plusHash === 0 && plus > 0 && plus >= nonEmpty * 0.5;
  if (stripHash) return lines.map((l) => l.replace(HASH_PREFIX, ""));
  if (stripPlus) return lines.map((l) => l.replace(DIFF_PLUS, ""));
  if (plusHash > 0) return lines.map((l) => (PLUS_HASH_PREFIX.test(l) ? l.replace(HASH_PREFIX, "") : l));
  return lines;
}

/** `text` without `N#HH:` prefixes when every non-empty line has one (write in hashline mode). */
export function stripDisplayPrefixes(text: string): string {
  const lines = text.split("\n");
  const nonEmpty = lines.filter((l) => l.replace(/\r$/, "").length > 0);
  if (nonEmpty.length === 0 || !nonEmpty.every((l) => HASH_PREFIX.test(l))) return text;
  return lines.map((l) => l.replace(HASH_PREFIX, "")).join("\n");
}

/** `content` as lines: a string is split on `\n` (one trailing newline dropped, `\r` removed). */
export function contentLines(content: string[] | string | null | undefined): string[] {
  if (content == null) return [];
  const lines = typeof content === "string" ? (content.endsWith("\n") ? content.slice(0, -1) : content).replace(/\r/g, "").split("\n") : content;
  return stripNewLinePrefixes(lines);
}

/** One entry's `loc` + `content` as an operation. */
export function toOp(entry: HashlineEntry): HashlineOp {
  const lines = contentLines(entry.content);
  const loc: unknown = entry.loc;
  if (loc === "append") return { op: "append_file", lines };
  if (loc === "prepend") return { op: "prepend_file", lines };
  if (typeof loc === "object" && loc !== null) {
    if ("append" in loc || "prepend" in loc) {
      const which = "append" in loc ? "append" : "prepend";
      const pos = tryTag((loc as Record<string, unknown>)[which]);
      if (!pos) throw new Error(`${which} requires a valid anchor.`);
      return { op: which === "append" ? "append_at" : "prepend_at", pos, lines };
    }
    if ("range" in loc) {
      const range = (loc as { range: unknown }).range as { pos?: unknown; end?: unknown } | null;
      const pos = tryTag(range?.pos);
      const end = tryTag(range?.end);
      if (!pos || !end) throw new Error("range requires valid pos and end anchors.");
      return { op: "replace_range", pos, end, lines };
    }
  }
  throw new Error("Unknown loc shape. Expected append, prepend, or range.");
}
