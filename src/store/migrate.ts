// Upgrade older pith, pi (v1–v3) and xcsh session files to pith's current shapes, in memory.
import { entryId } from "../shared/ids.js";
import { parseModelSelector } from "../shared/model-selector.js";
import { entryProblem } from "./entry-check.js";
import { KNOWN_ENTRY_TYPES, PITH_SESSION_VERSION, type SessionEntry, type SessionHeader } from "./entry-types.js";

export interface MigrationResult {
  header: SessionHeader;
  entries: SessionEntry[];
  warnings: string[];
  /**
   * Structural changes (ids assigned to id-less entries) that make appending to the file as is
   * unsafe: the store rewrites the whole file before its first append.
   */
  needsRewrite: boolean;
  /** Entries left out because they were damaged (each one a warning). */
  skipped: number;
}

type Rec = Record<string, unknown>;

/** Whether `first` is a session header line (type "session" with a string id). */
export function isHeaderRecord(first: Rec | undefined): first is Rec {
  return first !== undefined && first.type === "session" && typeof first.id === "string" && first.id !== "";
}

function migrateHeader(raw: Rec): SessionHeader {
  const header: SessionHeader = {
    type: "session",
    version: PITH_SESSION_VERSION,
    id: raw.id as string,
    timestamp: typeof raw.timestamp === "string" ? raw.timestamp : new Date(0).toISOString(),
    cwd: typeof raw.cwd === "string" ? raw.cwd : "",
  };
  if (typeof raw.parentSession === "string") header.parentSession = raw.parentSession;
  const name = typeof raw.name === "string" ? raw.name : typeof raw.title === "string" ? raw.title : undefined;
  if (name) header.name = name;
  return header;
}

/** pi v1 files have no ids: chain the entries linearly in file order. */
function assignIds(records: Rec[]): void {
  const taken = new Set<string>();
  for (const r of records) if (typeof r.id === "string") taken.add(r.id);
  let prev: string | null = null;
  for (const r of records) {
    if (typeof r.id !== "string") {
      r.id = entryId(taken);
      taken.add(r.id as string);
    }
    if (!("parentId" in r)) r.parentId = prev;
    prev = r.id as string;
  }
  for (const r of records) {
    // firstKeptEntryIndex counts file lines, the header being line 0.
    if (r.type === "compaction" && typeof r.firstKeptEntryIndex === "number" && r.firstKeptEntryId === undefined) {
      const target = records[r.firstKeptEntryIndex - 1];
      if (target) r.firstKeptEntryId = target.id;
      delete r.firstKeptEntryIndex;
    }
  }
}

/** Per-entry shape fixes; idempotent, so they may run on every load. */
function migrateRecord(r: Rec): Rec {
  if (r.type === "message" && r.message && typeof r.message === "object") {
    const msg = r.message as Rec;
    if (msg.role === "hookMessage") msg.role = "custom";
    if (msg.role === "custom") {
      const { role: _role, timestamp: _ts, ...rest } = msg;
      return { type: "custom_message", id: r.id, parentId: r.parentId, timestamp: r.timestamp, ...rest };
    }
  }
  if (r.type === "model_change" && typeof r.model === "string" && r.provider === undefined) {
    const { provider = "", id } = parseModelSelector(r.model);
    const { model: _model, role: _role, ...rest } = r;
    return { ...rest, provider, modelId: id };
  }
  if ((r.type === "compaction" || r.type === "branch_summary") && r.fromHook !== undefined) {
    const { fromHook, ...rest } = r;
    return { ...rest, fromExtension: fromHook };
  }
  if (typeof r.type === "string" && !KNOWN_ENTRY_TYPES.has(r.type)) {
    // xcsh-only state entries (service_tier_change, ttsr_injection, ...) keep their place in the tree.
    const { type, id, parentId, timestamp, ...data } = r;
    return { type: "custom", id, parentId, timestamp, customType: `unknown:${type}`, data };
  }
  return r;
}

function isEntryShape(r: Rec): boolean {
  return (
    typeof r.type === "string" &&
    typeof r.id === "string" &&
    (r.parentId === null || typeof r.parentId === "string") &&
    typeof r.timestamp === "string"
  );
}

/**
 * Upgrade a parsed file to the current shapes. `records` are mutated. Damaged entries are left
 * out with a warning; the children of a left-out entry hang from its nearest kept ancestor, so
 * one bad line never cuts a conversation in two.
 */
export function migrate(first: Rec, records: Rec[], label: string): MigrationResult {
  const warnings: string[] = [];
  const version = typeof first.version === "number" ? first.version : undefined;
  if (version !== undefined && version > PITH_SESSION_VERSION) {
    warnings.push(`${label}: written by a newer version (session format ${version}); entries this version does not know are kept as they are`);
  }
  // Only version-less (pi v1) files can lack ids: versioned files skip the scan.
  const needsRewrite = version === undefined && records.some((r) => typeof r.id !== "string");
  if (needsRewrite) assignIds(records);
  const entries: SessionEntry[] = [];
  const dropped = new Map<string, string | null>();
  for (let i = 0; i < records.length; i++) {
    const checked = checkRecord(records[i], i, label);
    if ("entry" in checked) entries.push(checked.entry);
    else {
      warnings.push(checked.warning);
      if (checked.dropped) dropped.set(checked.dropped.id, checked.dropped.parentId);
    }
  }
  if (dropped.size > 0) relink(entries, dropped);
  const skipped = records.length - entries.length;
  return { header: migrateHeader(first), entries, warnings, needsRewrite, skipped };
}

/** The per-entry upgrade alone, for a record that already passed `checkRecord` once. */
export function migrateLoaded(raw: Rec): Rec {
  if (raw.timestamp === undefined) raw.timestamp = new Date(0).toISOString();
  return migrateRecord(raw);
}

/** One parsed record as an entry, or why it is left out (`dropped`: its children are relinked). */
export type CheckedRecord = { entry: SessionEntry } | { warning: string; dropped?: { id: string; parentId: string | null } };

/** Migrate and check record number `i` (0-based, after the header); `raw` is mutated. */
export function checkRecord(raw: Rec, i: number, label: string): CheckedRecord {
  const r = migrateLoaded(raw);
  if (!isEntryShape(r)) return { warning: `${label}: entry ${i + 1} has no valid type/id/parentId/timestamp, skipped` };
  const problem = entryProblem(r);
  if (problem) {
    return {
      warning: `${label}: entry ${i + 1} (${r.type as string} ${r.id as string}) holds ${problem}, skipped`,
      dropped: { id: r.id as string, parentId: r.parentId as string | null },
    };
  }
  return { entry: r as unknown as SessionEntry };
}

/** The nearest ancestor of `id` that was not dropped (null when none). */
export function keptAncestorIn(dropped: ReadonlyMap<string, string | null>): (id: string | null) => string | null {
  return (id) => {
    const seen = new Set<string>();
    while (id !== null && dropped.has(id) && !seen.has(id)) {
      seen.add(id);
      id = dropped.get(id) ?? null;
    }
    return id !== null && dropped.has(id) ? null : id;
  };
}

/** Points entries whose parent was dropped at the nearest ancestor that was kept. */
function relink(entries: SessionEntry[], dropped: Map<string, string | null>): void {
  const keptAncestor = keptAncestorIn(dropped);
  for (const e of entries) if (e.parentId !== null && dropped.has(e.parentId)) e.parentId = keptAncestor(e.parentId);
}
