// Rendering grep matches (with optional context) as "path:line: text" / "path-line- text".
import { join } from "node:path";
import type { FsOps } from "../ops/fs-ops.js";
import type { LineMatch } from "../search/grep-search.js";
import { truncateLine } from "../truncate.js";

export interface FormattedGrep {
  text: string;
  linesTruncated: boolean;
  files: string[];
}

async function fileLines(fs: FsOps, abs: string): Promise<string[]> {
  const lines = (await fs.readFile(abs)).toString("utf8").split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines.map((l) => l.replace(/\r$/, ""));
}

function groupByFile(matches: LineMatch[]): Map<string, LineMatch[]> {
  const byFile = new Map<string, LineMatch[]>();
  for (const m of matches) {
    const list = byFile.get(m.path);
    if (list) list.push(m);
    else byFile.set(m.path, [m]);
  }
  return byFile;
}

/** `absOf(path)` maps a match path back to the file, for reading context lines. */
export async function formatGrep(matches: LineMatch[], context: number, fs: FsOps, absOf: (p: string) => string): Promise<FormattedGrep> {
  const out: string[] = [];
  let cut = false;
  const push = (path: string, n: number, sep: ":" | "-", text: string) => {
    const t = truncateLine(text);
    cut ||= t.wasTruncated;
    out.push(`${path}${sep}${n}${sep} ${t.text}`);
  };
  const byFile = groupByFile(matches);
  for (const [path, list] of byFile) {
    if (context <= 0) {
      for (const m of list) push(path, m.line, ":", m.text);
      continue;
    }
    const lines = await fileLines(fs, absOf(path));
    const matchLines = new Set(list.map((m) => m.line));
    let printedUpTo = 0;
    for (const m of list) {
      const from = Math.max(printedUpTo + 1, m.line - context);
      const to = Math.min(lines.length, m.line + context);
      for (let n = from; n <= to; n++) push(path, n, matchLines.has(n) ? ":" : "-", lines[n - 1] ?? "");
      printedUpTo = Math.max(printedUpTo, to);
    }
  }
  return { text: out.join("\n"), linesTruncated: cut, files: [...byFile.keys()] };
}

export function joinRoot(root: string, rootIsFile: boolean): (p: string) => string {
  return (p) => (rootIsFile ? root : join(root, p));
}
