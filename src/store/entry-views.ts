// The session tree as hosts read it (oh-my-pi's `get_entries` / `get_tree` shapes): every entry
// in file order after an optional cursor, and the entries nested under their parents.
import { PithError } from "../shared/errors.js";
import type { SessionEntry } from "./entry-types.js";
import type { SessionLog } from "./session-log.js";

/** `get_entries` answer. */
export interface EntriesPage {
  entries: SessionEntry[];
  leafId: string | null;
}

/** One node of `get_tree`: the entry, its children (oldest first) and its label. */
export interface SessionTreeNode {
  entry: SessionEntry;
  children: SessionTreeNode[];
  label?: string;
}

/** Thrown for a `since` that names no entry; the RPC answer carries `code: "unknown_since"`. */
export class UnknownSinceError extends PithError {
  readonly wireCode = "unknown_since";
  constructor(since: string) {
    super("not_found", `Unknown entries cursor: ${since}`);
  }
}

/** Entries strictly after `since` (all when absent), in file order. */
export function selectEntries(log: SessionLog, since?: string): EntriesPage {
  if (since === undefined) return { entries: [...log.entries()], leafId: log.leafId };
  const after = log.entriesAfter(since);
  if (after === undefined) throw new UnknownSinceError(since);
  return { entries: [...after], leafId: log.leafId };
}

function byTimestamp(a: SessionTreeNode, b: SessionTreeNode): number {
  return (Date.parse(a.entry.timestamp) || 0) - (Date.parse(b.entry.timestamp) || 0);
}

/**
 * The entries as a forest: roots are entries without a (known) parent. Built without recursion,
 * so a long linear session does not overflow the stack here.
 */
export function buildTree(log: SessionLog): SessionTreeNode[] {
  const nodes = new Map<string, SessionTreeNode>();
  const roots: SessionTreeNode[] = [];
  const entries = log.entries();
  for (const entry of entries) {
    const node: SessionTreeNode = { entry, children: [] };
    const label = log.getLabel(entry.id);
    if (label !== undefined) node.label = label;
    nodes.set(entry.id, node);
  }
  for (const entry of entries) {
    const node = nodes.get(entry.id) as SessionTreeNode;
    const parent = entry.parentId === null || entry.parentId === entry.id ? undefined : nodes.get(entry.parentId);
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  for (const node of nodes.values()) if (node.children.length > 1) node.children.sort(byTimestamp);
  return roots;
}

/** How deep the nested answer of `buildTree` is (one level per entry on the longest path). */
export function treeDepth(roots: readonly SessionTreeNode[]): number {
  let max = 0;
  const stack: Array<[SessionTreeNode, number]> = roots.map((r) => [r, 1]);
  while (stack.length > 0) {
    const [node, d] = stack.pop() as [SessionTreeNode, number];
    if (d > max) max = d;
    for (const c of node.children) stack.push([c, d + 1]);
  }
  return max;
}
