// YAML front matter of a Markdown file (rules, agent definitions), read by the `yaml` package:
// a first line `---`, YAML up to a line `---` (or `...`), then the body. One dialect for every
// such file: YAML 1.2's core schema, except that
// - numbers stay text as written (`version: 1.10` is "1.10"; no file format here wants numbers),
// - a later duplicate key wins (no error),
// - a double-quoted value keeps escapes YAML has no use for in a pattern (`"\d+"`, `"\bword"`)
//   as written, because rule conditions are regular expressions; `\\ \" \/ \n \t \r \0 \xNN
//   \uNNNN` are applied.
// `yaml` is loaded on first use (not bundled into the startup code): most runs read no front matter.
import { createRequire } from "node:module";
import type * as Yaml from "yaml";
import { PithError } from "./errors.js";

export interface FrontMatter {
  /** The front matter's keys; empty when the front matter is empty. */
  data: Record<string, unknown>;
  /** Everything after the closing line, line ends normalised to LF. */
  body: string;
}

let yaml: typeof Yaml | undefined;
function loadYaml(): typeof Yaml {
  yaml ??= createRequire(import.meta.url)("yaml") as typeof Yaml;
  return yaml;
}

/**
 * Splits `text` into front matter and body; undefined when the first line is not `---`.
 * Throws PithError("config") naming the file line for malformed YAML, an unclosed front matter
 * or front matter that is not `key: value` lines.
 */
export function parseFrontMatter(text: string): FrontMatter | undefined {
  const src = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lines = src.split("\n");
  if (lines[0].trimEnd() !== "---") return undefined;
  const end = lines.findIndex((l, i) => i > 0 && (l.trimEnd() === "---" || l.trimEnd() === "..."));
  if (end < 0) throw new PithError("config", "front-matter is not closed by a `---` line");
  return { data: parseYamlMapping(lines.slice(1, end).join("\n"), 2), body: lines.slice(end + 1).join("\n") };
}

/** Errors a front-matter reader accepts: the escapes `unescapeDouble` keeps as written. */
const TOLERATED = new Set(["BAD_DQ_ESCAPE"]);

/** `source` as a YAML mapping; `firstLine` is its first line's number in the file (for messages). */
function parseYamlMapping(source: string, firstLine: number): Record<string, unknown> {
  const { parseDocument, visit, isScalar, isMap } = loadYaml();
  const doc = parseDocument(source, { uniqueKeys: false, prettyErrors: false, customTags: withoutNumbers });
  const lineOf = (offset: number) => firstLine + countNewlines(source, offset);
  const error = doc.errors.find((e) => !TOLERATED.has(e.code));
  if (error) throw new PithError("config", `front-matter line ${lineOf(error.pos[0])}: ${error.message}`);
  if (doc.contents === null) return {};
  if (!isMap(doc.contents)) {
    const at = doc.contents.range?.[0] ?? 0;
    throw new PithError("config", `front-matter line ${lineOf(at)}: expected "key: value" lines, got ${JSON.stringify(source.split("\n")[countNewlines(source, at)] ?? "")}`);
  }
  visit(doc, {
    Scalar(_key, node) {
      if (!isScalar(node) || node.type !== "QUOTE_DOUBLE" || !node.range) return;
      const raw = source.slice(node.range[0], node.range[1]).trimEnd();
      if (!raw.includes("\n") && raw.endsWith('"')) node.value = unescapeDouble(raw.slice(1, -1));
    },
  });
  return doc.toJS() as Record<string, unknown>;
}

function withoutNumbers(tags: Yaml.Tags): Yaml.Tags {
  return tags.filter((t) => typeof t === "string" || !["tag:yaml.org,2002:int", "tag:yaml.org,2002:float"].includes(t.tag));
}

function countNewlines(s: string, end: number): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i >= 0 && i < end; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

const ESCAPES: Record<string, string> = { "\\": "\\", '"': '"', "/": "/", n: "\n", t: "\t", r: "\r", "0": "\0" };

/** The escapes of a double-quoted value that are applied; any other (`\d`, `\b`) stays as written. */
function unescapeDouble(s: string): string {
  return s.replace(/\\(u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|.)/g, (whole, esc: string) => {
    if (esc.length > 1) return String.fromCharCode(parseInt(esc.slice(1), 16));
    return ESCAPES[esc] ?? whole;
  });
}
