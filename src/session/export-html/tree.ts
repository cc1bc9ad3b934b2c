// The sidebar: every entry of the file as a tree, indented only where the tree forks.
import type { SessionEntry } from "../../store/entry-types.js";
import { esc } from "./escape.js";
import { entrySummary } from "./render-entry.js";

interface Row {
  entry: SessionEntry;
  depth: number;
}

/** Depth-first rows in file order; iterative so 10,000-deep linear sessions are fine. */
function treeRows(entries: readonly SessionEntry[]): Row[] {
  const ids = new Set(entries.map((e) => e.id));
  const children = new Map<string | null, SessionEntry[]>();
  for (const e of entries) {
    const parent = e.parentId !== null && ids.has(e.parentId) ? e.parentId : null;
    const list = children.get(parent);
    if (list) list.push(e);
    else children.set(parent, [e]);
  }
  const rows: Row[] = [];
  const roots = children.get(null) ?? [];
  const stack: Row[] = roots.map((entry) => ({ entry, depth: roots.length > 1 ? 1 : 0 })).reverse();
  const seen = new Set<string>();
  while (stack.length > 0) {
    const row = stack.pop()!;
    if (seen.has(row.entry.id)) continue;
    seen.add(row.entry.id);
    rows.push(row);
    const kids = children.get(row.entry.id) ?? [];
    const depth = kids.length > 1 ? row.depth + 1 : row.depth;
    for (let i = kids.length - 1; i >= 0; i--) stack.push({ entry: kids[i], depth });
  }
  return rows;
}

/** `<nav>` listing all entries; entries on the active branch link to their card. */
export function renderTree(entries: readonly SessionEntry[], onBranch: ReadonlySet<string>, leafId: string | null, anchored: ReadonlySet<string>): string {
  const items = treeRows(entries).map(({ entry, depth }) => {
    const cls = [onBranch.has(entry.id) ? "on-branch" : "", entry.id === leafId ? "leaf" : ""].filter(Boolean).join(" ");
    const text = esc(entrySummary(entry));
    const inner = anchored.has(entry.id) ? `<a href="#entry-${esc(entry.id)}">${text}</a>` : text;
    const indent = Math.min(depth, 24) * 10;
    return `<li${cls ? ` class="${cls}"` : ""} style="padding-left:${indent}px" title="${esc(entry.id)}">${inner}</li>`;
  });
  return `<nav class="tree"><div class="role">Session tree (${entries.length} entries)</div><ol>${items.join("")}</ol></nav>`;
}
