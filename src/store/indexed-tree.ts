// The tree of a session file opened from disk, held as an index (session-index.ts) plus the
// parsed entries of the current context; every other entry is read back by offset when asked
// for. Appends extend the index and the held context, so a long session pith keeps writing
// never needs a full parse. An indexed line that turns out damaged when first read is left out
// then, exactly as a full load would have left it out (its children relinked), with a warning.
import { PithError } from "../shared/errors.js";
import { userMessageEntries, type UserMessageRef } from "./branching.js";
import type { SessionEntry } from "./entry-types.js";
import { checkRecord, keptAncestorIn, migrateLoaded } from "./migrate.js";
import type { RowSource } from "./row-source.js";
import { F_ASSISTANT, F_DELETED, F_UNCHECKED, F_USER, TYPE_MASK, typeCode, type IndexTable, type SessionIndex } from "./session-index.js";
import type { TreeView } from "./tree-view.js";

const T_MESSAGE = typeCode("message");
const T_COMPACTION = typeCode("compaction");
const T_MODEL = typeCode("model_change");
const T_THINKING = typeCode("thinking_level_change");

interface Held {
  leaf: number;
  /** The latest model source and thinking change before `rows` (see TreeView.contextBranch). */
  before: SessionEntry[];
  rows: number[];
  entries: SessionEntry[];
}

export class IndexedTree implements TreeView {
  readonly warnings: string[];
  private readonly t: IndexTable;
  private readonly labels: Map<string, string>;
  private sessionName: string | undefined;
  private leaf: number;
  private skippedCount: number;
  private deleted = 0;
  /** Appended entries whose write failed: they exist only here. */
  private readonly pinned = new Map<number, SessionEntry>();
  private held: Held | undefined;
  /** The held entries by row (context objects are never parsed twice). */
  private heldByRow = new Map<number, SessionEntry>();
  /** Entries left out as damaged (id → parent), for relinking as a full load does. */
  private readonly dropped: Map<string, string | null>;

  constructor(
    private readonly source: RowSource,
    private readonly label: string,
    index: SessionIndex,
    headerName: string | undefined,
  ) {
    this.t = index.table;
    this.labels = index.labels;
    this.sessionName = index.name ?? headerName;
    this.warnings = index.warnings;
    this.skippedCount = index.skipped;
    this.leaf = this.t.n - 1;
    this.dropped = index.dropped;
    // A damaged entry relinks every entry naming its id as parent, even one that a duplicate of
    // the id would otherwise catch: entries sharing an id are checked now, not when first read.
    if (index.duplicateIds.size > 0) {
      const rows: number[] = [];
      for (let i = 0; i < this.t.n; i++) if (this.t.kinds[i] & F_UNCHECKED && index.duplicateIds.has(this.t.idOf(i))) rows.push(i);
      this.read(rows);
    }
  }

  get name(): string | undefined {
    return this.sessionName;
  }
  get leafId(): string | null {
    return this.leaf >= 0 ? this.t.idOf(this.leaf) : null;
  }
  get entryCount(): number {
    return this.t.n - this.deleted;
  }
  get skipped(): number {
    return this.skippedCount;
  }
  has(id: string): boolean {
    return this.t.latestOf(id) !== -1;
  }
  getLabel(id: string): string | undefined {
    return this.labels.get(id);
  }
  getEntry(id: string): SessionEntry | undefined {
    // a damaged latest entry is dropped on reading: an earlier one with the id may answer then
    for (let row = this.t.latestOf(id); row !== -1; row = this.t.latestOf(id)) {
      const e = this.read([row])[0];
      if (e) return e;
    }
    return undefined;
  }

  entries(): readonly SessionEntry[] {
    return this.liveRows(0, () => true);
  }
  entriesAfter(id: string): SessionEntry[] | undefined {
    const t = this.t;
    if (t.latestOf(id) === -1) return undefined;
    const bytes = Buffer.from(id, "utf8");
    for (let i = 0; i < t.n; i++) {
      if (t.sameId(i, bytes, 0, bytes.length) && !(t.kinds[i] & F_DELETED) && this.read([i])[0]) return this.liveRows(i + 1, () => true);
    }
    return undefined;
  }
  userMessageEntries(): UserMessageRef[] {
    return userMessageEntries(this.liveRows(0, (i) => (this.t.kinds[i] & F_USER) !== 0));
  }
  customEntries(type: "custom" | "custom_message", customType: string, onBranch = false): SessionEntry[] {
    const code = typeCode(type);
    const wanted = (i: number) => !(this.t.kinds[i] & F_DELETED) && (this.t.kinds[i] & TYPE_MASK) === code && this.t.customTypes.get(i) === customType;
    if (!onBranch) return this.liveRows(0, wanted);
    // In path order (root to leaf), as the branch reads: a damaged file's path need not follow file order.
    return this.read(this.pathRows(this.leaf).filter(wanted)).filter((e): e is SessionEntry => e !== undefined);
  }

  branch(leafId: string | null = this.leafId): SessionEntry[] {
    const row = leafId === null ? -1 : this.t.latestOf(leafId);
    if (row === -1) return [];
    for (;;) {
      const got = this.read(this.pathRows(row));
      if (got.every((e) => e !== undefined)) return got as SessionEntry[];
      // an entry on the path was damaged: it is gone now and its children relinked
      if (this.t.kinds[row] & F_DELETED) return [];
    }
  }

  contextBranch(): SessionEntry[] {
    const held = this.hydrate();
    return [...held.before, ...held.entries];
  }

  moveLeaf(id: string | null): void {
    if (id === null) {
      this.leaf = -1;
      return;
    }
    if (!this.getEntry(id)) throw new PithError("not_found", `Entry ${id} not found`);
    this.leaf = this.t.latestOf(id);
  }

  /**
   * Indexes an entry just written at `offset` (`length` bytes without the LF; offset -1: the
   * write failed and the entry lives in memory only) and makes it the leaf.
   */
  add(e: SessionEntry, offset: number, length: number): void {
    const t = this.t;
    const flags = e.type === "message" ? (e.message.role === "assistant" ? F_ASSISTANT : e.message.role === "user" ? F_USER : 0) : 0;
    const row = t.pushId(e.id, offset, length, typeCode(e.type) | flags, 0);
    if (e.parentId !== null && this.dropped.has(e.parentId)) {
      // the id is also a left-out entry's: reopening the file relinks this entry, so it is now
      e.parentId = keptAncestorIn(this.dropped)(e.parentId);
      t.relinked.set(row, e.parentId);
    }
    this.setParent(row, e.parentId);
    t.setLatest(row);
    if (offset < 0) this.pinned.set(row, e);
    if (e.type === "custom" || e.type === "custom_message") t.customTypes.set(row, e.customType);
    else if (e.type === "compaction") t.firstKept.set(row, e.firstKeptEntryId);
    else if (e.type === "label") {
      if (e.label) this.labels.set(e.targetId, e.label);
      else this.labels.delete(e.targetId);
    } else if (e.type === "session_info" && e.name) this.sessionName = e.name;
    const held = this.held;
    if (held && held.leaf === this.leaf && t.parents[row] === this.leaf && e.type !== "compaction") {
      held.rows.push(row);
      held.entries.push(e);
      held.leaf = row;
      this.heldByRow.set(row, e);
    }
    this.leaf = row;
  }

  /** The held context of the current leaf, re-read when the leaf moved elsewhere. */
  private hydrate(): Held {
    if (this.held && this.held.leaf === this.leaf) return this.held;
    for (;;) {
      const rows = this.pathRows(this.leaf);
      const start = contextStart(this.t, rows);
      const beforeRows = lastSourcesBefore(this.t, rows, start);
      const tail = rows.slice(start);
      const got = this.read([...beforeRows, ...tail]);
      if (got.some((e) => e === undefined)) continue; // a damaged entry was dropped: walk again
      const entries = got as SessionEntry[];
      const byRow = new Map<number, SessionEntry>();
      [...beforeRows, ...tail].forEach((r, k) => byRow.set(r, entries[k]));
      this.heldByRow = byRow;
      this.held = { leaf: this.leaf, before: entries.slice(0, beforeRows.length), rows: tail, entries: entries.slice(beforeRows.length) };
      return this.held;
    }
  }

  /** Rows from the root to `row`; a (corrupt) cyclic chain stops where it would repeat. */
  private pathRows(row: number): number[] {
    const out: number[] = [];
    if (row < 0) return out;
    const t = this.t;
    const limit = this.entryCount;
    for (let cur = row; cur >= 0 && out.length <= limit; cur = t.parents[cur]) out.push(cur);
    if (out.length > limit) {
      out.length = 0;
      const seen = new Uint8Array(t.n);
      for (let cur = row; cur >= 0 && !seen[cur]; cur = t.parents[cur]) {
        seen[cur] = 1;
        out.push(cur);
      }
    }
    return out.reverse();
  }

  /** Live rows from `from` on that `keep` accepts, read in file order. */
  private liveRows(from: number, keep: (row: number) => boolean): SessionEntry[] {
    const rows: number[] = [];
    for (let i = from; i < this.t.n; i++) if (!(this.t.kinds[i] & F_DELETED) && keep(i)) rows.push(i);
    return this.read(rows).filter((e): e is SessionEntry => e !== undefined);
  }

  /** The entries of `rows` (held ones from memory, the rest from disk); undefined where damaged. */
  private read(rows: readonly number[]): (SessionEntry | undefined)[] {
    const t = this.t;
    const out: (SessionEntry | undefined)[] = new Array(rows.length);
    const todo: number[] = [];
    rows.forEach((r, k) => {
      const mem = this.heldByRow.get(r) ?? this.pinned.get(r);
      if (mem) out[k] = mem;
      else if (!(t.kinds[r] & F_DELETED)) todo.push(k);
    });
    if (todo.length > 0) {
      // rows are parsed as they arrive, in the order asked
      const wanted = todo.map((k) => rows[k]);
      this.source.read(t, wanted, (j, text) => {
        const r = wanted[j];
        out[todo[j]] = text === undefined ? this.drop(r, "missing from the file", false) : this.parseRow(r, text);
      });
    }
    // relinking may have happened while reading: every entry carries the parent the index has now
    rows.forEach((r, k) => {
      const e = out[k];
      if (e && !(t.kinds[r] & F_DELETED)) e.parentId = t.parentIdOf(r);
      else out[k] = undefined;
    });
    return out;
  }

  private parseRow(row: number, text: string): SessionEntry | undefined {
    let obj: unknown;
    try {
      obj = JSON.parse(text);
    } catch (err) {
      void err; // reported as a damaged line below
    }
    if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return this.drop(row, "not a JSON object", false);
    const t = this.t;
    if (!(t.kinds[row] & F_UNCHECKED)) return migrateLoaded(obj as Record<string, unknown>) as unknown as SessionEntry;
    const checked = checkRecord(obj as Record<string, unknown>, t.recNos[row] - 1, this.label);
    if ("entry" in checked && checked.entry.id === t.idOf(row) && typeCode(checked.entry.type) === (t.kinds[row] & TYPE_MASK)) {
      t.kinds[row] &= ~F_UNCHECKED;
      return checked.entry;
    }
    return this.drop(row, "warning" in checked ? checked.warning : "not the entry its first bytes announced", "warning" in checked && checked.dropped !== undefined);
  }

  /** Leaves out a damaged row as a full load would have; `relink`: its children hang from its parent. */
  private drop(row: number, why: string, relink: boolean): undefined {
    const t = this.t;
    t.kinds[row] |= F_DELETED;
    this.deleted++;
    this.skippedCount++;
    this.warnings.push(why.startsWith(this.label) ? why : `${this.label}: entry ${this.source.where(t, row)}: ${why}, skipped`);
    const id = t.idOf(row);
    if (t.latestOf(id) === row) {
      t.clearLatest(id);
      for (let i = row - 1; i >= 0; i--) {
        if (!(t.kinds[i] & F_DELETED) && t.idOf(i) === id) {
          t.setLatest(i);
          break;
        }
      }
    }
    if (relink) {
      // as a full load relinks: every entry naming this id as its parent, a duplicate kept or not
      this.dropped.set(id, t.parentIdOf(row));
      const keptAncestor = keptAncestorIn(this.dropped);
      for (let i = 0; i < t.n; i++) {
        if (t.kinds[i] & F_DELETED || t.parentIdOf(i) !== id) continue;
        const parentId = keptAncestor(id);
        t.relinked.set(i, parentId);
        this.setParent(i, parentId);
      }
    } else {
      // a line that is not an entry: its children keep their parent id, now found elsewhere or nowhere
      for (let i = 0; i < t.n; i++) if (t.parents[i] === row) this.setParent(i, id);
    }
    if (this.leaf === row) {
      this.leaf = -1;
      for (let i = t.n - 1; i >= 0 && this.leaf === -1; i--) if (!(t.kinds[i] & F_DELETED)) this.leaf = i;
    }
    this.held = undefined;
    this.heldByRow.delete(row);
    return undefined;
  }

  private setParent(row: number, parentId: string | null): void {
    const t = this.t;
    const p = parentId === null ? -1 : t.latestOf(parentId);
    t.parents[row] = p;
    if (p === -1 && parentId !== null) t.dangling.set(row, parentId);
    else t.dangling.delete(row);
  }
}

/** Where the context starts on `rows`: the latest compaction's first kept entry. */
function contextStart(t: IndexTable, rows: readonly number[]): number {
  let c = rows.length - 1;
  while (c >= 0 && (t.kinds[rows[c]] & TYPE_MASK) !== T_COMPACTION) c--;
  if (c < 0) return 0;
  const firstKept = t.firstKept.get(rows[c]);
  const bytes = Buffer.from(firstKept ?? "", "utf8");
  for (let i = 0; i < c; i++) if (firstKept !== undefined && t.sameId(rows[i], bytes, 0, bytes.length)) return i;
  return c;
}

/** The latest model source (model change or assistant message) and thinking change before `start`. */
function lastSourcesBefore(t: IndexTable, rows: readonly number[], start: number): number[] {
  let model = -1;
  let thinking = -1;
  for (let i = start - 1; i >= 0 && (model === -1 || thinking === -1); i--) {
    const k = t.kinds[rows[i]];
    const type = k & TYPE_MASK;
    if (model === -1 && (type === T_MODEL || (type === T_MESSAGE && k & F_ASSISTANT))) model = i;
    if (thinking === -1 && type === T_THINKING) thinking = i;
  }
  return [model, thinking].filter((i) => i !== -1).sort((a, b) => a - b).map((i) => rows[i]);
}
