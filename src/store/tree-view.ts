// What SessionStore reads of its tree, whether every entry is held (EntryTree) or only an index
// and the current context (IndexedTree, for files opened from disk).
import type { UserMessageRef } from "./branching.js";
import type { SessionEntry } from "./entry-types.js";

export interface TreeView {
  /** Problems met while loading (and, for an index, while reading later), one line each. */
  readonly warnings: string[];
  readonly name: string | undefined;
  readonly leafId: string | null;
  /** How many entries the tree holds (all branches). */
  readonly entryCount: number;
  /** Damaged lines and entries left out. */
  readonly skipped: number;
  entries(): readonly SessionEntry[];
  /** Entries strictly after the first entry with `id`, in file order; undefined when no entry has it. */
  entriesAfter(id: string): SessionEntry[] | undefined;
  getEntry(id: string): SessionEntry | undefined;
  getLabel(id: string): string | undefined;
  has(id: string): boolean;
  userMessageEntries(): UserMessageRef[];
  branch(leafId?: string | null): SessionEntry[];
  /**
   * What the context of the current leaf is built from: the branch from the latest compaction's
   * first kept entry on (the whole branch without a compaction), preceded by the latest model
   * source and thinking-level change before that part. `buildContextFromPath` gives the same
   * answer for it as for the whole branch.
   */
  contextBranch(): SessionEntry[];
  /** `custom` or `custom_message` entries of one customType, in file order (optionally only those on the current branch). */
  customEntries(type: "custom" | "custom_message", customType: string, onBranch?: boolean): SessionEntry[];
  moveLeaf(id: string | null): void;
}
