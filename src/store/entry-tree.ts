// The in-memory session tree: entries in file order, an id index,
// the labels, the session name and the leaf. Reading only; SessionStore adds the file.
import { PithError } from "../shared/errors.js";
import type { SessionEntry } from "./entry-types.js";
import { userMessageEntries, type UserMessageRef } from "./branching.js";
import type { TreeView } from "./tree-view.js";

export class EntryTree implements TreeView {
  /** Problems met while loading (torn/corrupt lines, duplicate ids), one line each. */
  readonly warnings: string[];
  private readonly list: SessionEntry[] = [];
  private readonly byId = new Map<string, SessionEntry>();
  private readonly labels = new Map<string, string>();
  private leaf: string | null = null;
  private sessionName: string | undefined;

  constructor(
    entries: readonly SessionEntry[],
    name: string | undefined,
    warnings: readonly string[] = [],
    /** Damaged lines and entries left out on load. */
    readonly skipped = 0,
  ) {
    this.warnings = [...warnings];
    this.sessionName = name;
    for (const e of entries) {
      if (this.byId.has(e.id)) this.warnings.push(`duplicate entry id ${e.id}: the later entry wins lookups`);
      this.add(e);
    }
  }

  /** Latest non-empty `session_info` name, else the header's name. */
  get name(): string | undefined {
    return this.sessionName;
  }
  /** Where the next append attaches; null before the first entry (or after `moveLeaf(null)`). */
  get leafId(): string | null {
    return this.leaf;
  }

  /** All entries of the file, all branches, in file order. */
  entries(): readonly SessionEntry[] {
    return this.list;
  }
  get entryCount(): number {
    return this.list.length;
  }
  entriesAfter(id: string): SessionEntry[] | undefined {
    const index = this.list.findIndex((e) => e.id === id);
    return index === -1 ? undefined : this.list.slice(index + 1);
  }
  getEntry(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }
  customEntries(type: "custom" | "custom_message", customType: string, onBranch = false): SessionEntry[] {
    const from = onBranch ? this.branch() : this.list;
    return from.filter((e) => e.type === type && e.customType === customType);
  }
  /** All of the branch: every part of it is held anyway. */
  contextBranch(): SessionEntry[] {
    return this.branch();
  }
  /** The current label of an entry, if any. */
  getLabel(id: string): string | undefined {
    return this.labels.get(id);
  }
  /** Every user message of the whole file with non-empty text, in file order (`get_branch_messages`). */
  userMessageEntries(): UserMessageRef[] {
    return userMessageEntries(this.list);
  }

  /** Entries from the root to `leafId` (default: the current leaf), linear in the path length. */
  branch(leafId: string | null = this.leaf): SessionEntry[] {
    // A path without a cycle visits each id at most once, so it cannot be longer than the index;
    // only a (corrupt) file whose walk gets longer pays for the cycle-checking walk.
    const limit = this.byId.size;
    const out: SessionEntry[] = [];
    let cur = leafId === null ? undefined : this.byId.get(leafId);
    while (cur && out.length <= limit) {
      out.push(cur);
      cur = cur.parentId === null ? undefined : this.byId.get(cur.parentId);
    }
    return cur ? this.branchWithCycleCheck(leafId as string) : out.reverse();
  }

  /** Move the leaf inside the file (tree navigation); not persisted until the next append. */
  moveLeaf(id: string | null): void {
    if (id !== null && !this.byId.has(id)) throw new PithError("not_found", `Entry ${id} not found`);
    this.leaf = id;
  }

  /** Indexes one entry and makes it the leaf. */
  add(e: SessionEntry): void {
    this.list.push(e);
    this.byId.set(e.id, e);
    this.leaf = e.id;
    if (e.type === "label") {
      if (e.label) this.labels.set(e.targetId, e.label);
      else this.labels.delete(e.targetId);
    } else if (e.type === "session_info" && e.name) {
      this.sessionName = e.name;
    }
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  private branchWithCycleCheck(leafId: string): SessionEntry[] {
    const out: SessionEntry[] = [];
    const seen = new Set<string>();
    let cur = this.byId.get(leafId);
    while (cur && !seen.has(cur.id)) {
      seen.add(cur.id);
      out.push(cur);
      cur = cur.parentId === null ? undefined : this.byId.get(cur.parentId);
    }
    return out.reverse();
  }
}
