// What every stored session shares, whatever holds its lines: the tree (every entry held, or an
// index plus the current context), the header, and how an append becomes an entry (a fresh id, the
// leaf as parent, the time). The JSONL SessionStore and the database log extend it and add where
// the entry is written.
import { PithError } from "../shared/errors.js";
import { entryId, snowflake } from "../shared/ids.js";
import type { AgentMessage } from "../shared/types.js";
import type { UserMessageRef } from "./branching.js";
import { PITH_SESSION_VERSION, type NewEntry, type SessionEntry, type SessionHeader } from "./entry-types.js";
import type { EntryTree } from "./entry-tree.js";
import type { IndexedTree } from "./indexed-tree.js";
import type { SessionLog } from "./session-log.js";
import { sanitizeSessionName } from "./session-name.js";

export abstract class TreeLog implements SessionLog {
  abstract readonly path: string | undefined;
  /** Working directory the session runs in (not necessarily the header's cwd). */
  readonly cwd: string;
  protected readonly tree: EntryTree | IndexedTree;
  protected readonly hdr: SessionHeader;
  protected closed = false;

  protected constructor(tree: EntryTree | IndexedTree, header: SessionHeader, cwd: string) {
    this.tree = tree;
    this.hdr = header;
    this.cwd = cwd;
  }

  abstract get isPersisted(): boolean;
  /** Opened for reading only: appends are refused. */
  protected abstract get readOnly(): boolean;
  /** Adds `entry` to the tree and writes it wherever this log keeps its lines. */
  protected abstract write(entry: SessionEntry): void;
  abstract branchToNewFile(id: string): { store: SessionLog; text: string };
  abstract cloneToNewFile(): SessionLog;
  abstract ensureOnDisk(): void;
  abstract flush(): void;
  abstract close(): void;

  get header(): Readonly<SessionHeader> {
    return this.hdr;
  }
  get sessionId(): string {
    return this.hdr.id;
  }
  /** Problems met while loading (and reading an index later), one line each. */
  get warnings(): readonly string[] {
    return this.tree.warnings;
  }
  /** Damaged lines and entries left out (counted in `get_session_stats`). */
  get skippedEntries(): number {
    return this.tree.skipped;
  }
  get name(): string | undefined {
    return this.tree.name;
  }
  get leafId(): string | null {
    return this.tree.leafId;
  }
  get entryCount(): number {
    return this.tree.entryCount;
  }
  entries(): readonly SessionEntry[] {
    return this.tree.entries();
  }
  entriesAfter(id: string): readonly SessionEntry[] | undefined {
    return this.tree.entriesAfter(id);
  }
  getEntry(id: string): SessionEntry | undefined {
    return this.tree.getEntry(id);
  }
  getLabel(id: string): string | undefined {
    return this.tree.getLabel(id);
  }
  userMessageEntries(): UserMessageRef[] {
    return this.tree.userMessageEntries();
  }
  branch(leafId?: string | null): SessionEntry[] {
    return this.tree.branch(leafId);
  }
  contextBranch(): SessionEntry[] {
    return this.tree.contextBranch();
  }
  customEntries(type: "custom" | "custom_message", customType: string, onBranch?: boolean): SessionEntry[] {
    return this.tree.customEntries(type, customType, onBranch);
  }
  moveLeaf(id: string | null): void {
    this.tree.moveLeaf(id);
  }

  /** Persist a message; role `custom` becomes a `custom_message` entry. */
  appendMessage(message: AgentMessage): SessionEntry {
    if (message.role === "custom") {
      const { role: _role, timestamp: _ts, ...rest } = message;
      return this.append({ type: "custom_message", ...rest });
    }
    if (message.role === "compactionSummary" || message.role === "branchSummary") {
      throw new PithError("invalid_request", `Messages of role ${message.role} are derived from entries, not stored`);
    }
    return this.append({ type: "message", message });
  }
  /** Sanitise (empty → PithError) and record the name in a `session_info` entry. */
  setName(name: string): SessionEntry {
    return this.append({ type: "session_info", name: sanitizeSessionName(name) });
  }

  /**
   * Appends one entry as a child of the leaf and makes it the leaf. A `label` must target an
   * existing entry (an empty label clears it).
   */
  append(partial: NewEntry): SessionEntry {
    if (this.closed) throw new PithError("internal", `Session store is closed: ${this.path ?? this.sessionId}`);
    if (this.readOnly) throw new PithError("invalid_request", `Session was opened read-only: ${this.path}`);
    const tree = this.tree;
    if (partial.type === "label" && !tree.getEntry(partial.targetId)) throw new PithError("not_found", `Entry ${partial.targetId} not found`);
    const { type, ...rest } = partial;
    const entry = {
      type,
      id: entryId({ has: (id) => tree.has(id) }),
      parentId: tree.leafId,
      timestamp: new Date().toISOString(),
      ...rest,
    } as SessionEntry;
    this.write(entry);
    return entry;
  }
}

/** The header of a new session. */
export function newHeader(cwd: string, now: number, parentSession?: string, name?: string, id = snowflake(now)): SessionHeader {
  const header: SessionHeader = { type: "session", version: PITH_SESSION_VERSION, id, timestamp: new Date(now).toISOString(), cwd };
  if (parentSession !== undefined) header.parentSession = parentSession;
  if (name !== undefined) header.name = name;
  return header;
}
