// A rule file's front matter: YAML (the shared front-matter reader) whose values are text,
// true/false, null or lists of text; anything else is a config error naming the key.
import { PithError } from "../shared/errors.js";
import { parseFrontMatter } from "../shared/front-matter.js";

export type FrontmatterValue = string | boolean | null | string[];

export interface ParsedMarkdown {
  data: Record<string, FrontmatterValue>;
  /** Everything after the closing `---` (the whole text when there is no front-matter). */
  body: string;
}

/** Splits `text` into front-matter data and body. Throws PithError("config") on malformed YAML. */
export function parseFrontmatter(text: string): ParsedMarkdown {
  const parsed = parseFrontMatter(text);
  if (!parsed) return { data: {}, body: text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n") };
  const data: Record<string, FrontmatterValue> = {};
  for (const [key, value] of Object.entries(parsed.data)) data[key] = ruleValue(key, value);
  return { data, body: parsed.body };
}

function ruleValue(key: string, value: unknown): FrontmatterValue {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== "object")) {
    // list items are text; empty items (`[a, ]`, a bare `-`) are dropped
    return value.filter((v) => v !== null && v !== "").map(String);
  }
  throw new PithError("config", `front-matter key "${key}": expected text, true/false or a list of text`);
}
