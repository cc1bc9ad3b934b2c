// What the session needs of an open session file: read the tree, append entries, derive new
// files, close. The JSONL SessionStore implements it; another backend (a database shared by
// several machines) would implement the same and nothing above the store would change.
import type { AgentMessage } from "../shared/types.js";
import type { UserMessageRef } from "./branching.js";
import type { NewEntry, SessionEntry, SessionHeader } from "./entry-types.js";

export interface SessionLog {
  /** Absolute path of the file; undefined when the session lives in memory only. */
  readonly path: string | undefined;
  readonly sessionId: string;
  readonly header: Readonly<SessionHeader>;
  /** Working directory the session runs in. */
  readonly cwd: string;
  /** Problems met while loading, one line each. */
  readonly warnings: readonly string[];
  /** Damaged lines and entries left out on load. */
  readonly skippedEntries: number;
  /** The file exists on disk (an opened session, or a new one after its first write). */
  readonly isPersisted: boolean;
  /** The latest name (`session_info`), else the header's. */
  readonly name: string | undefined;
  /** Where the next append attaches. */
  readonly leafId: string | null;

  /** How many entries the file holds (all branches). */
  readonly entryCount: number;

  // ── read ──
  /** Every entry of every branch, in file order (a large file is read from disk for it: prefer the narrower reads). */
  entries(): readonly SessionEntry[];
  /** Entries strictly after the first entry with `id`, in file order; undefined when no entry has it. */
  entriesAfter(id: string): readonly SessionEntry[] | undefined;
  getEntry(id: string): SessionEntry | undefined;
  getLabel(id: string): string | undefined;
  /** Root → leaf path (default: the current leaf). */
  branch(leafId?: string | null): SessionEntry[];
  userMessageEntries(): UserMessageRef[];
  /**
   * The part of the current branch its context is built from (from the latest compaction's first
   * kept entry on, after the latest model and thinking-level sources before it): what
   * `buildContextFromPath` and compaction need, without reading the whole branch.
   */
  contextBranch(): SessionEntry[];
  /** `custom` / `custom_message` entries of one customType in file order (optionally only the current branch's). */
  customEntries(type: "custom" | "custom_message", customType: string, onBranch?: boolean): SessionEntry[];

  // ── append ──
  append(entry: NewEntry): SessionEntry;
  /** A context message as its entry (custom messages become `custom_message`). */
  appendMessage(message: AgentMessage): SessionEntry;
  /** Sanitises and records the session name. */
  setName(name: string): SessionEntry;
  /** Tree navigation: the next append attaches to `id`. */
  moveLeaf(id: string | null): void;

  // ── derive, persist, release ──
  /** A new session with the history before user message `id` (and that message's text). */
  branchToNewFile(id: string): { store: SessionLog; text: string };
  /** A new session holding a copy of the current branch. */
  cloneToNewFile(): SessionLog;
  /** Writes the file now, even before the first reply. */
  ensureOnDisk(): void;
  flush(): void;
  /** Flushes and releases the file (its writer lock). Later appends fail. */
  close(): void;
}
