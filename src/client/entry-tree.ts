// `get_tree`'s nesting built on the client from `get_entries`: pith answers trees up
// to 1,000 entries deep as nested JSON; a longer linear session is nested here instead, without
// recursion, exactly as the server nests it (roots: entries without a known parent; siblings by
// timestamp; a node carries the label its latest label entry gave it).

/** What the nesting reads of a session entry (the wire schema leaves entries open). */
export interface TreeEntry {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  targetId?: string;
  label?: string;
  [key: string]: unknown;
}
type Entry = TreeEntry;

/** One node of `get_tree` (the wire schema leaves nodes open). */
export interface TreeNode {
  entry: Entry;
  children: TreeNode[];
  label?: string;
}
type Node = TreeNode;

export function treeFromEntries(entries: readonly Entry[]): TreeNode[] {
  const labels = new Map<string, string>();
  for (const e of entries) {
    if (e.type !== "label" || typeof e.targetId !== "string") continue;
    if (e.label) labels.set(e.targetId, e.label);
    else labels.delete(e.targetId);
  }
  const nodes = new Map<string, Node>();
  for (const entry of entries) {
    const node: Node = { entry, children: [] };
    const label = labels.get(entry.id);
    if (label !== undefined) node.label = label;
    nodes.set(entry.id, node);
  }
  const roots: Node[] = [];
  for (const entry of entries) {
    const node = nodes.get(entry.id)!;
    const parent = entry.parentId === null || entry.parentId === entry.id ? undefined : nodes.get(entry.parentId);
    (parent ? parent.children : roots).push(node);
  }
  const time = (n: Node) => Date.parse(n.entry.timestamp) || 0;
  for (const node of nodes.values()) if (node.children.length > 1) node.children.sort((a, b) => time(a) - time(b));
  return roots;
}
