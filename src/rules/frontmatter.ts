// A tiny YAML front-matter reader for rule files: `key: value` scalars (plain, 'single', "double"),
// booleans and null, flow lists `[a, "b"]`, block lists (`- item`), block scalars (`|`, `>`) and
// comments. Anything else is a config error naming the line. No dependency.
import { PithError } from "../shared/errors.js";

export type FrontmatterValue = string | boolean | null | string[];

export interface ParsedMarkdown {
  data: Record<string, FrontmatterValue>;
  /** Everything after the closing `---` (the whole text when there is no front-matter). */
  body: string;
}

const KEY_LINE = /^([A-Za-z_][\w.-]*)[ \t]*:(?:[ \t]+(.*))?$/;
const LIST_ITEM = /^[ \t]*-(?:[ \t]+(.*))?$/;
const BLOCK_SCALAR = /^([|>])[+-]?$/;

/** Splits `text` into front-matter data and body. Throws PithError("config") on malformed YAML. */
export function parseFrontmatter(text: string): ParsedMarkdown {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = src.split("\n");
  if (lines[0].trimEnd() !== "---") return { data: {}, body: src };
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) throw new PithError("config", "front-matter is not closed by a `---` line");
  return { data: parseLines(lines.slice(1, end)), body: lines.slice(end + 1).join("\n") };
}

function parseLines(lines: string[]): Record<string, FrontmatterValue> {
  const data: Record<string, FrontmatterValue> = {};
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (isBlankOrComment(line)) {
      i++;
      continue;
    }
    const m = KEY_LINE.exec(line);
    if (!m) throw new PithError("config", `front-matter line ${i + 2}: expected "key: value", got ${JSON.stringify(line)}`);
    const raw = stripComment(m[2] ?? "").trim();
    i++;
    const block = BLOCK_SCALAR.exec(raw);
    if (block) {
      const taken = takeIndented(lines, i);
      data[m[1]] = foldBlock(taken, block[1] === ">");
      i += taken.length;
    } else if (raw === "") {
      const items: string[] = [];
      while (i < lines.length && (isBlankOrComment(lines[i]) || LIST_ITEM.test(lines[i]))) {
        const item = LIST_ITEM.exec(lines[i]);
        if (item) items.push(scalarText(stripComment(item[1] ?? "").trim(), i + 2));
        i++;
      }
      data[m[1]] = items.length > 0 ? items : null;
    } else {
      data[m[1]] = parseValue(raw, i + 1);
    }
  }
  return data;
}

function isBlankOrComment(line: string): boolean {
  const t = line.trim();
  return t === "" || t.startsWith("#");
}

/** Indented (or blank) lines following a block-scalar key. */
function takeIndented(lines: string[], from: number): string[] {
  const out: string[] = [];
  for (let i = from; i < lines.length && (lines[i].trim() === "" || /^[ \t]/.test(lines[i])); i++) out.push(lines[i]);
  while (out.length > 0 && out[out.length - 1].trim() === "") out.pop();
  return out;
}

function foldBlock(lines: string[], fold: boolean): string {
  const indents = lines.filter((l) => l.trim() !== "").map((l) => /^[ \t]*/.exec(l)?.[0].length ?? 0);
  const cut = indents.length > 0 ? Math.min(...indents) : 0;
  const body = lines.map((l) => l.slice(cut));
  return fold ? body.join(" ").replace(/ {2,}/g, " ").trim() : body.join("\n");
}

/** Drops a ` # comment` outside quotes. */
function stripComment(value: string): string {
  let quote: string | undefined;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "#" && (i === 0 || /[ \t]/.test(value[i - 1]))) return value.slice(0, i);
  }
  return value;
}

function parseValue(raw: string, lineNo: number): FrontmatterValue {
  if (raw.startsWith("[")) {
    if (!raw.endsWith("]")) throw new PithError("config", `front-matter line ${lineNo}: unclosed "[" list`);
    return splitFlow(raw.slice(1, -1)).map((item) => scalarText(item.trim(), lineNo)).filter((s) => s !== "");
  }
  if (raw.startsWith('"') || raw.startsWith("'")) return scalarText(raw, lineNo);
  if (/^(true|True|TRUE)$/.test(raw)) return true;
  if (/^(false|False|FALSE)$/.test(raw)) return false;
  if (raw === "~" || /^(null|Null|NULL)$/.test(raw)) return null;
  return raw;
}

/** Splits a flow list body on commas outside quotes and brackets. */
function splitFlow(body: string): string[] {
  const out: string[] = [];
  let quote: string | undefined;
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (quote) {
      if (c === "\\" && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "{" || c === "[") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      out.push(body.slice(start, i));
      start = i + 1;
    }
  }
  out.push(body.slice(start));
  return out.filter((s) => s.trim() !== "");
}

/** A scalar as text: quotes removed and escapes applied. */
function scalarText(raw: string, lineNo: number): string {
  if (raw.startsWith("'")) {
    if (raw.length < 2 || !raw.endsWith("'")) throw new PithError("config", `front-matter line ${lineNo}: a single-quoted value must end at its closing quote`);
    return raw.slice(1, -1).replace(/''/g, "'");
  }
  if (raw.startsWith('"')) {
    if (closingDoubleQuote(raw) !== raw.length - 1) {
      throw new PithError("config", `front-matter line ${lineNo}: a double-quoted value must end at its closing quote`);
    }
    return unescapeDouble(raw.slice(1, -1));
  }
  return raw;
}

/** Index of the first unescaped `"` after the opening one, or -1. */
function closingDoubleQuote(raw: string): number {
  for (let i = 1; i < raw.length; i++) {
    if (raw[i] === "\\") i++;
    else if (raw[i] === '"') return i;
  }
  return -1;
}

const ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0" };

/**
 * YAML double-quote escapes. Unknown escapes such as `\d` or `\b` are kept as written (YAML would
 * reject `\d` and turn `\b` into a backspace), because rule conditions are regexes.
 */
function unescapeDouble(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (whole, esc: string) => {
    if (esc.length > 1) return String.fromCharCode(parseInt(esc.slice(1), 16));
    return ESCAPES[esc] ?? whole;
  });
}
