// Opening a database session as a file is opened: an index of every entry (id, parent, type and
// the few small fields the tree needs, read from their own columns: no line is transferred) and
// a row source that fetches lines by position when the tree asks (the current context at once,
// older entries on demand). A row's place in the index is its position `seq`.
import { IndexTable } from "../index-table.js";
import type { RowSource } from "../row-source.js";
import { F_ASSISTANT, F_UNCHECKED, F_USER, duplicateWarnings, resolveParents, typeCode, type SessionIndex } from "../session-index.js";
import type { DbBridge } from "./bridge.js";
import type { IndexColumns } from "./protocol.js";

/** Lines fetched per request when many are read at once (`get_entries` of a large session). */
const BATCH = 5_000;

/** The index of a session from its entries' columns. */
export function indexFromColumns(cols: IndexColumns, label: string): SessionIndex {
  const n = cols.ids.length;
  const table = new IndexTable(n);
  const labels = new Map<string, string>();
  const unresolved = new Map<number, string>();
  const warnings: string[] = [];
  let duplicates = false;
  let skipped = 0;
  let name: string | undefined;
  for (let i = 0; i < n; i++) {
    const type = typeCode(cols.types[i]);
    if (type < 0) {
      // unknown to this pith (a newer one wrote it): never read, as a file's unknown line
      warnings.push(`${label}: entry ${i + 1} has an unknown type ${cols.types[i]}, skipped`);
      skipped++;
      continue;
    }
    const role = cols.roles[i];
    const flags = role === "assistant" ? F_ASSISTANT : role === "user" ? F_USER : 0;
    // every line is checked when first read, as a file's are
    const row = table.pushId(cols.ids[i], i, cols.lengths[i], type | flags | F_UNCHECKED, i + 1);
    const parentId = cols.parents[i];
    if (parentId !== null) {
      const p = table.latestOf(parentId);
      if (p === -1) unresolved.set(row, parentId);
      else table.parents[row] = p;
    }
    if (table.setLatest(row) !== -1) duplicates = true;
    const customType = cols.customTypes[i];
    if (customType !== null) table.customTypes.set(row, customType);
    const firstKept = cols.firstKept[i];
    if (firstKept !== null) table.firstKept.set(row, firstKept);
    const target = cols.labelTargets[i];
    if (target !== null) {
      const text = cols.labels[i];
      if (text) labels.set(target, text);
      else labels.delete(target);
    }
    const infoName = cols.infoNames[i];
    if (infoName) name = infoName;
  }
  const duplicateIds = new Set<string>();
  if (duplicates) warnings.push(...duplicateWarnings(table, duplicateIds));
  const dropped = new Map<string, string | null>();
  if (duplicates || unresolved.size > 0) resolveParents(table, unresolved, dropped);
  return { table, labels, name, warnings, skipped, appendOffset: 0, needsNewline: false, duplicateIds, dropped };
}

/** Lines of session `sessionId` by position, fetched through the bridge. */
export function dbRowSource(bridge: DbBridge, sessionId: string): RowSource {
  return {
    read(t, rows, each) {
      for (let from = 0; from < rows.length; from += BATCH) {
        const part = rows.slice(from, from + BATCH);
        const got = new Map(bridge.call<[number, string][]>("lines", [sessionId, part.map((r) => t.offsets[r])]));
        part.forEach((r, k) => each(from + k, got.get(t.offsets[r])));
      }
    },
    where: (t, row) => `#${t.offsets[row] + 1}`,
  };
}
