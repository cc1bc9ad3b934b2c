// SessionStore: the append-only JSONL session tree. One instance per open
// session; appends are written synchronously as one line each; a `<file>.lock` guards the writer.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../shared/errors.js";
import { makeDirsSync } from "../shared/make-dirs.js";
import type { SessionEntry, SessionHeader } from "./entry-types.js";
import { acquireLock, releaseLock } from "./lock.js";
import { SessionFileWriter, type FsyncMode } from "./session-file-writer.js";
import { newSessionFileName } from "./layout.js";
import { branchParts, cloneParts, type DerivedParts } from "./branching.js";
import { EntryTree } from "./entry-tree.js";
import { IndexedTree } from "./indexed-tree.js";
import { loadSessionFile } from "./load-session-file.js";
import { TreeLog, newHeader } from "./tree-log.js";

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
  /** false: parse the whole file instead of indexing it (tests compare the two). */
  index?: boolean;
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
  /** An opened file's tree (else one is built from `entries`). */
  tree?: EntryTree | IndexedTree;
}

/** A session opened on a JSONL file (or kept in memory): the tree plus its append-only file. */
export class SessionStore extends TreeLog {
  /** Absolute path of the session file; undefined for in-memory sessions. */
  readonly path: string | undefined;
  private readonly file: FileBacking | undefined;

  private constructor(parts: StoreParts) {
    super(parts.tree ?? new EntryTree(parts.entries, parts.header.name), parts.header, parts.cwd);
    this.path = parts.filePath;
    this.file = parts.file;
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
   * A new session at exactly `filePath` (`--session <path>` naming a file that
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
    const m = loadSessionFile(abs, { index: opts.index });
    const lockPath = opts.readOnly ? undefined : acquireLock(abs);
    const file: FileBacking = {
      writer: new SessionFileWriter(abs, opts.fsync ?? "never"),
      fsync: opts.fsync ?? "never",
      deferUntilAssistant: opts.deferUntilAssistant ?? true,
      readOnly: opts.readOnly ?? false,
      onDisk: true,
      lockPath,
      needsRewrite: m.needsRewrite,
      validLength: m.validLength,
      needsNewline: m.needsNewline,
    };
    return new SessionStore({ header: m.header, entries: [], tree: m.tree, cwd: opts.cwd, filePath: abs, file });
  }

  /**
   * A store over given parts: a file-backed one when `filePath` is set (not yet on disk), else
   * in memory. Used by branch and clone; most callers want `create`/`open`/`inMemory`.
   */
  static fromParts(parts: Omit<StoreParts, "file" | "tree">, opts: StoreWriteOptions = {}): SessionStore {
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

  /** The session file exists on disk with this session's header. */
  get isPersisted(): boolean {
    return this.file?.onDisk ?? false;
  }
  protected get readOnly(): boolean {
    return this.file?.readOnly ?? false;
  }
  /** Write options this store was created with, for stores derived from it. */
  get writeOptions(): StoreWriteOptions {
    return this.file ? { fsync: this.file.fsync, deferUntilAssistant: this.file.deferUntilAssistant } : {};
  }

  /** A new session holding the history before user message `entryId`; */
  branchToNewFile(id: string): { store: SessionStore; text: string } {
    const { parts, text } = branchParts(this, id);
    return { store: this.derive(parts), text };
  }
  /** A new session file holding a copy of the current branch. */
  cloneToNewFile(): SessionStore {
    return this.derive(cloneParts(this));
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

  /** An indexed tree learns the entry's offset from the write; a held tree holds it first. */
  protected write(entry: SessionEntry): void {
    const tree = this.tree;
    if (tree instanceof IndexedTree) {
      this.appendIndexed(tree, this.file as FileBacking, entry);
      return;
    }
    tree.add(entry);
    if (this.file) this.persist(this.file, entry);
  }

  /** An opened file: write the line, then index it at the offset it landed on. */
  private appendIndexed(tree: IndexedTree, f: FileBacking, entry: SessionEntry): void {
    const line = JSON.stringify(entry) + "\n";
    let offset = -1;
    try {
      if (!f.writer.isOpen) f.writer.openExisting(f.validLength, f.needsNewline);
      const at = f.writer.size;
      f.writer.append(line);
      offset = at;
    } finally {
      tree.add(entry, offset, Buffer.byteLength(line) - 1);
    }
  }

  private derive(parts: DerivedParts): SessionStore {
    const { header, entries, filePath } = parts;
    const store = SessionStore.fromParts({ header, entries, cwd: this.cwd, filePath }, this.writeOptions);
    if (!parts.writeNow) return store;
    store.ensureOnDisk();
    if (!(this.tree instanceof IndexedTree) || store.path === undefined) return store;
    // copied from an indexed (large) file: hold the copy as an index too, not all of its entries
    store.close();
    return SessionStore.open(store.path, { cwd: this.cwd, ...this.writeOptions });
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
    return [JSON.stringify(this.hdr) + "\n", ...this.entries().map((e) => JSON.stringify(e) + "\n")];
  }
}

function mkdirFor(filePath: string): void {
  try {
    makeDirsSync(path.dirname(filePath));
  } catch (err) {
    throw new PithError("io", `Cannot create the session directory for ${filePath}: ${errorMessage(err)}`, { cause: err });
  }
}
