// SessionStore: the append-only JSONL session tree (spec/engine.md §1). One instance per open
// session; appends are written synchronously as one line each; a `<file>.lock` guards the writer.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../../shared/errors.js";
import { entryId, snowflake } from "../../shared/ids.js";
import type { AgentMessage, ThinkingLevel } from "../../shared/types.js";
import {
  PITH_SESSION_VERSION,
  type BranchSummaryInput,
  type CompactionInput,
  type NewEntry,
  type SessionEntry,
  type SessionHeader,
} from "./entry-types.js";
import { parseSessionBuffer } from "./jsonl-parse.js";
import { isHeaderRecord, migrate } from "./migrate.js";
import { acquireLock, releaseLock } from "./lock.js";
import { SessionFileWriter, type FsyncMode } from "./session-file-writer.js";
import { sanitizeSessionName } from "./session-name.js";
import { newSessionFileName } from "./layout.js";
import { branchStore, cloneStore, userMessageEntries, type BranchResult, type UserMessageRef } from "./branching.js";

export interface StoreWriteOptions {
  /** Default "never": one writeSync per line; "always" adds an fdatasync per line. */
  fsync?: FsyncMode;
  /**
   * Default true (like the reference): a new session's file appears only when the first assistant
   * message is appended, so sessions that never got a reply leave nothing on disk.
   * false: the file is written on the first append.
   */
  deferUntilAssistant?: boolean;
}
export interface CreateSessionOptions extends StoreWriteOptions {
  sessionDir: string;
  cwd: string;
  parentSession?: string;
  name?: string;
  /** Write the header (and take the lock) now instead of lazily. */
  eager?: boolean;
}
export interface OpenSessionOptions extends StoreWriteOptions {
  /** The process working directory (the header's cwd is informational). */
  cwd: string;
  /** No lock, appends throw: for export and inspection. */
  readOnly?: boolean;
}

interface FileBacking {
  writer: SessionFileWriter;
  fsync: FsyncMode;
  deferUntilAssistant: boolean;
  readOnly: boolean;
  /** The file exists with our header (opened, or written by us). */
  onDisk: boolean;
  lockPath?: string;
  needsRewrite: boolean;
  validLength: number;
  needsNewline: boolean;
}

interface StoreParts {
  header: SessionHeader;
  entries: SessionEntry[];
  cwd: string;
  filePath?: string;
  file?: FileBacking;
  warnings?: string[];
}

export class SessionStore {
  /** Absolute path of the session file; undefined for in-memory sessions. */
  readonly path: string | undefined;
  /** Working directory the session runs in (not necessarily the header's cwd). */
  readonly cwd: string;
  /** Problems met while loading (torn/corrupt lines), one line each. */
  readonly warnings: string[];
  private readonly hdr: SessionHeader;
  private readonly list: SessionEntry[] = [];
  private readonly byId = new Map<string, SessionEntry>();
  private readonly labels = new Map<string, string>();
  private leaf: string | null = null;
  private sessionName: string | undefined;
  private readonly file: FileBacking | undefined;
  private closed = false;

  private constructor(parts: StoreParts) {
    this.hdr = parts.header;
    this.cwd = parts.cwd;
    this.path = parts.filePath;
    this.file = parts.file;
    this.warnings = [...(parts.warnings ?? [])];
    this.sessionName = parts.header.name;
    for (const e of parts.entries) {
      if (this.byId.has(e.id)) this.warnings.push(`duplicate entry id ${e.id}: the later entry wins lookups`);
      this.index(e);
    }
  }

  /** A new session in `sessionDir` (file name `<ts>_<id>.jsonl`), written lazily unless `eager`. */
  static create(opts: CreateSessionOptions): SessionStore {
    const now = Date.now();
    const header = newHeader(opts.cwd, now, opts.parentSession, opts.name);
    const filePath = path.resolve(opts.sessionDir, newSessionFileName(header.id, now));
    const store = SessionStore.fromParts({ header, entries: [], cwd: opts.cwd, filePath }, opts);
    if (opts.eager) store.ensureOnDisk();
    return store;
  }

  /**
   * A new session at exactly `filePath` (engine.md §1.5: `--session <path>` naming a file that
   * does not exist yet), written lazily unless `eager`. The file must not exist.
   */
  static createAt(filePath: string, opts: Omit<CreateSessionOptions, "sessionDir">): SessionStore {
    const abs = path.resolve(opts.cwd, filePath);
    if (fs.existsSync(abs)) throw new PithError("invalid_request", `Session file already exists: ${abs}`);
    const header = newHeader(opts.cwd, Date.now(), opts.parentSession, opts.name);
    const store = SessionStore.fromParts({ header, entries: [], cwd: opts.cwd, filePath: abs }, opts);
    if (opts.eager) store.ensureOnDisk();
    return store;
  }

  /** A session that never touches the disk (`--no-session`). */
  static inMemory(opts: { cwd: string; parentSession?: string }): SessionStore {
    return new SessionStore({ header: newHeader(opts.cwd, Date.now(), opts.parentSession), entries: [], cwd: opts.cwd });
  }

  /**
   * Load an existing file leniently and take its writer lock. Missing file → PithError
   * "not_found"; a first line that is not a session header → "invalid_request"; locked → "busy".
   */
  static open(filePath: string, opts: OpenSessionOptions): SessionStore {
    const abs = path.resolve(opts.cwd, filePath);
    const parsed = parseSessionBuffer(readSessionFile(abs), abs);
    if (!isHeaderRecord(parsed.first)) {
      throw new PithError("invalid_request", `Not a session file (first line is not a session header): ${abs}`);
    }
    const m = migrate(parsed.first, parsed.records, abs);
    const lockPath = opts.readOnly ? undefined : acquireLock(abs);
    const file: FileBacking = {
      writer: new SessionFileWriter(abs, opts.fsync ?? "never"),
      fsync: opts.fsync ?? "never",
      deferUntilAssistant: opts.deferUntilAssistant ?? true,
      readOnly: opts.readOnly ?? false,
      onDisk: true,
      lockPath,
      needsRewrite: m.needsRewrite,
      validLength: parsed.appendOffset,
      needsNewline: parsed.needsNewline,
    };
    const warnings = [...parsed.warnings, ...m.warnings];
    return new SessionStore({ header: m.header, entries: m.entries, cwd: opts.cwd, filePath: abs, file, warnings });
  }

  /**
   * A store over given parts: a file-backed one when `filePath` is set (not yet on disk), else
   * in memory. Used by branch and clone; most callers want `create`/`open`/`inMemory`.
   */
  static fromParts(parts: Omit<StoreParts, "file" | "warnings">, opts: StoreWriteOptions = {}): SessionStore {
    const file: FileBacking | undefined = parts.filePath
      ? {
          writer: new SessionFileWriter(parts.filePath, opts.fsync ?? "never"),
          fsync: opts.fsync ?? "never",
          deferUntilAssistant: opts.deferUntilAssistant ?? true,
          readOnly: false,
          onDisk: false,
          needsRewrite: false,
          validLength: 0,
          needsNewline: false,
        }
      : undefined;
    return new SessionStore({ ...parts, file });
  }

  get header(): Readonly<SessionHeader> {
    return this.hdr;
  }
  get sessionId(): string {
    return this.hdr.id;
  }
  /** Latest non-empty `session_info` name, else the header's name. */
  get name(): string | undefined {
    return this.sessionName;
  }
  /** Where the next append attaches; null before the first entry (or after `moveLeaf(null)`). */
  get leafId(): string | null {
    return this.leaf;
  }
  /** The session file exists on disk with this session's header. */
  get isPersisted(): boolean {
    return this.file?.onDisk ?? false;
  }
  /** Write options this store was created with, for stores derived from it. */
  get writeOptions(): StoreWriteOptions {
    return this.file ? { fsync: this.file.fsync, deferUntilAssistant: this.file.deferUntilAssistant } : {};
  }

  /** All entries of the file, all branches, in file order. */
  entries(): readonly SessionEntry[] {
    return this.list;
  }
  getEntry(id: string): SessionEntry | undefined {
    return this.byId.get(id);
  }
  /** The current label of an entry, if any. */
  getLabel(id: string): string | undefined {
    return this.labels.get(id);
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
  appendModelChange(provider: string, modelId: string): SessionEntry {
    return this.append({ type: "model_change", provider, modelId });
  }
  appendThinkingLevelChange(thinkingLevel: ThinkingLevel | null): SessionEntry {
    return this.append({ type: "thinking_level_change", thinkingLevel });
  }
  appendCompaction(input: CompactionInput): SessionEntry {
    return this.append({ type: "compaction", ...input });
  }
  appendBranchSummary(input: BranchSummaryInput): SessionEntry {
    return this.append({ type: "branch_summary", ...input });
  }
  /** Label `targetId` (an existing entry); an empty or undefined label clears it. */
  appendLabel(targetId: string, label: string | undefined): SessionEntry {
    if (!this.byId.has(targetId)) throw new PithError("not_found", `Entry ${targetId} not found`);
    return this.append(label ? { type: "label", targetId, label } : { type: "label", targetId });
  }
  /** Sanitise (protocol §3.28; empty → PithError) and record the name in a `session_info` entry. */
  setName(name: string): SessionEntry {
    return this.append({ type: "session_info", name: sanitizeSessionName(name) });
  }
  /** Extension state that never enters the LLM context. */
  appendCustom(customType: string, data?: unknown): SessionEntry {
    return this.append(data === undefined ? { type: "custom", customType } : { type: "custom", customType, data });
  }

  /** Move the leaf inside the file (tree navigation); not persisted until the next append. */
  moveLeaf(id: string | null): void {
    if (id !== null && !this.byId.has(id)) throw new PithError("not_found", `Entry ${id} not found`);
    this.leaf = id;
  }

  /** Every user message of the whole file with non-empty text, in file order (`get_branch_messages`). */
  userMessageEntries(): UserMessageRef[] {
    return userMessageEntries(this.list);
  }
  /** A new session holding the history before user message `entryId`; see engine.md §1.9.3. */
  branchToNewFile(id: string): BranchResult {
    return branchStore(this, id);
  }
  /** A new session file holding a copy of the current branch. */
  cloneToNewFile(): SessionStore {
    return cloneStore(this);
  }

  /** Write the file now (header + entries) even though no assistant message exists yet. */
  ensureOnDisk(): void {
    const f = this.file;
    if (!f || f.onDisk) return;
    this.materialize(f);
  }
  /** fsync what has been written. */
  flush(): void {
    if (this.file?.writer.isOpen) this.file.writer.flush();
  }
  /** Flush, close the fd and release the lock. Later appends throw. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    const f = this.file;
    if (!f) return;
    try {
      f.writer.close();
    } finally {
      if (f.lockPath) releaseLock(f.lockPath);
    }
  }

  private append(partial: NewEntry): SessionEntry {
    if (this.closed) throw new PithError("internal", `Session store is closed: ${this.path ?? this.sessionId}`);
    if (this.file?.readOnly) throw new PithError("invalid_request", `Session was opened read-only: ${this.path}`);
    const { type, ...rest } = partial;
    const entry = {
      type,
      id: entryId(this.byId),
      parentId: this.leaf,
      timestamp: new Date().toISOString(),
      ...rest,
    } as SessionEntry;
    this.index(entry);
    if (this.file) this.persist(this.file, entry);
    return entry;
  }

  private persist(f: FileBacking, entry: SessionEntry): void {
    if (!f.onDisk) {
      const isAssistant = entry.type === "message" && entry.message.role === "assistant";
      if (!f.deferUntilAssistant || isAssistant) this.materialize(f);
      return;
    }
    if (!f.writer.isOpen) {
      if (f.needsRewrite) {
        f.writer.rewrite(this.allLines());
        f.needsRewrite = false;
        return;
      }
      f.writer.openExisting(f.validLength, f.needsNewline);
    }
    f.writer.append(JSON.stringify(entry) + "\n");
  }

  /** First write of a new session: take the lock, write header + all entries atomically. */
  private materialize(f: FileBacking): void {
    if (f.lockPath === undefined) {
      // the lock lives beside the file: its directory must exist first
      mkdirFor(f.writer.filePath);
      f.lockPath = acquireLock(f.writer.filePath);
    }
    f.writer.rewrite(this.allLines());
    f.onDisk = true;
  }

  private allLines(): string[] {
    return [JSON.stringify(this.hdr) + "\n", ...this.list.map((e) => JSON.stringify(e) + "\n")];
  }

  private index(e: SessionEntry): void {
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
}

function newHeader(cwd: string, now: number, parentSession?: string, name?: string): SessionHeader {
  const header: SessionHeader = {
    type: "session",
    version: PITH_SESSION_VERSION,
    id: snowflake(now),
    timestamp: new Date(now).toISOString(),
    cwd,
  };
  if (parentSession !== undefined) header.parentSession = parentSession;
  if (name !== undefined) header.name = name;
  return header;
}

function mkdirFor(filePath: string): void {
  try {
    fs.mkdirSync(path.dirname(filePath), { recursive: true });
  } catch (err) {
    throw new PithError("io", `Cannot create the session directory for ${filePath}: ${errorMessage(err)}`, { cause: err });
  }
}

function readSessionFile(abs: string): Buffer {
  try {
    return fs.readFileSync(abs);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new PithError("not_found", `Session file not found: ${abs}`, { cause: err });
    if (code === "EISDIR") throw new PithError("invalid_request", `Not a session file (a directory): ${abs}`, { cause: err });
    throw new PithError("io", `Cannot read session file ${abs}: ${errorMessage(err)}`, { cause: err });
  }
}
