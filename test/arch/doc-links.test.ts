// Every link in the repository's Markdown resolves: a relative link names a file or folder that
// exists, and a `#fragment` names a heading of the file it points to (GitHub's slug rules).
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SKIP = new Set(["node_modules", ".git", "dist", ".peers"]);

function markdownFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.startsWith(".")) continue;
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...markdownFiles(full));
    else if (entry.name.endsWith(".md")) out.push(full);
  }
  return out;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, "")
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug(m[1]);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Inline Markdown links outside code fences and code spans: `[text](target)`. */
function linksOf(text: string): string[] {
  const out: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (line.startsWith("```")) fenced = !fenced;
    if (fenced) continue;
    const bare = line.replace(/`[^`]*`/g, "");
    for (const m of bare.matchAll(/\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) out.push(m[1]);
  }
  return out;
}

export function brokenLinks(file: string): string[] {
  const problems: string[] = [];
  for (const target of linksOf(readFileSync(file, "utf8"))) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [pathPart, fragment] = target.split("#", 2);
    const dest = pathPart === "" ? file : resolve(dirname(file), decodeURIComponent(pathPart));
    const where = `${relative(ROOT, file)}: (${target})`;
    if (!existsSync(dest)) {
      problems.push(`${where} names a file that does not exist`);
      continue;
    }
    if (fragment && statSync(dest).isFile() && dest.endsWith(".md") && !anchorsOf(dest).has(fragment.toLowerCase())) {
      problems.push(`${where} names a heading that ${relative(ROOT, dest)} does not have`);
    }
  }
  return problems;
}

describe("documentation links", () => {
  const files = markdownFiles(ROOT);

  it("finds the README and the docs", () => {
    expect(files.map((f) => relative(ROOT, f))).toEqual(expect.arrayContaining(["README.md", "docs/protocol.md"]));
  });

  it("every relative link and anchor resolves", () => {
    const problems = files.flatMap(brokenLinks);
    expect(problems, problems.join("\n")).toEqual([]);
  });

  it("reports a missing file and a missing heading, not a good link or one inside code", () => {
    const dir = mkdtempSync(join(tmpdir(), "pith-links-"));
    writeFileSync(join(dir, "a.md"), "# Top\n\n## Second part\n");
    const doc = join(dir, "b.md");
    writeFileSync(doc, "[ok](a.md#second-part) [gone](missing.md) [bad](a.md#nope) `[code](x.md)`\n```\n[fenced](y.md)\n```\n");
    expect(brokenLinks(doc).map((p) => p.replace(/^.*: /, ""))).toEqual([
      "(missing.md) names a file that does not exist",
      "(a.md#nope) names a heading that " + relative(ROOT, join(dir, "a.md")) + " does not have",
    ]);
  });

  it("the slug rule matches GitHub's", () => {
    expect(slug("Editors: ACP mode")).toBe("editors-acp-mode");
    expect(slug("Structured results: `outputSchema`")).toBe("structured-results-outputschema");
    expect(slug("1.2 Protocol version 2: bounded lines (oh-my-pi 18)")).toBe("12-protocol-version-2-bounded-lines-oh-my-pi-18");
  });
});
