// `---` YAML front matter of Markdown files (skills, prompt templates, pi's `parseFrontmatter`),
// read with the `yaml` library.
import { parse as parseYaml } from "yaml";

/** Splits front matter from the body; a file without front matter is all body. Throws on bad YAML. */
export function parseFrontmatter<T = Record<string, unknown>>(content: string): { frontmatter: T; body: string } {
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const m = /^---\n([\s\S]*?)\n?---[ \t]*(?:\n|$)/.exec(text);
  if (!m) return { frontmatter: {} as T, body: text };
  const data = parseYaml(m[1]) as unknown;
  return { frontmatter: (data && typeof data === "object" ? data : {}) as T, body: text.slice(m[0].length) };
}

export function stripFrontmatter(content: string): string {
  return parseFrontmatter(content).body;
}
