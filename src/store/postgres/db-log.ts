// A session kept in the database, as the session sees any SessionLog. It behaves as a session
// file does: a new session stays in memory until its first assistant message (then the header
// and every entry are written in one transaction); each later append is one committed statement
// before `append` returns, so an entry the host hears of is stored; an opened session is held as
// an index plus its current context, older lines fetched by position when asked for. Its writer
// lock is the database's (one writer per session across machines); the first write that fails
// is latched, as a file's is, and every later append repeats it.
import { PithError, errorMessage } from "../../shared/errors.js";
import { branchParts, cloneParts, type DerivedParts } from "../branching.js";
import type { SessionEntry, SessionHeader } from "../entry-types.js";
import { EntryTree } from "../entry-tree.js";
import { IndexedTree } from "../indexed-tree.js";
import { isHeaderRecord, migrate } from "../migrate.js";
import { TreeLog, newHeader } from "../tree-log.js";
import type { DbBridge } from "./bridge.js";
import { dbRowSource, indexFromColumns } from "./db-index.js";
import { entryRow, firstMessageOf, lineBytes, sessionRows } from "./entry-row.js";
import type { IndexColumns, LockAnswer } from "./protocol.js";

/** What the logs of one database store share. */
export interface DbContext {
  bridge: DbBridge;
  /** Sessions this process has open for writing: a second opener here is refused. */
  open: Set<string>;
  /** The group of each session this process created or opened (open_session asks). */
  dirs: Map<string, string>;
}

/** How hosts name a database session: `pg:<session id>`. */
export const REF_PREFIX = "pg:";
export const refOf = (id: string): string => `${REF_PREFIX}${id}`;

interface LogParts {
  tree: EntryTree | IndexedTree;
  header: SessionHeader;
  cwd: string;
  dir: string;
  stored: boolean;
  readOnly: boolean;
  nextSeq: number;
  bytes: number;
}

export class DbSessionLog extends TreeLog {
  readonly path: string;
  private readonly dir: string;
  private readonly isReadOnly: boolean;
  private stored: boolean;
  private locked = false;
  private nextSeq: number;
  private bytes: number;
  private failure: PithError | undefined;

  private constructor(
    private readonly ctx: DbContext,
    p: LogParts,
  ) {
    super(p.tree, p.header, p.cwd);
    this.path = refOf(p.header.id);
    this.dir = p.dir;
    this.stored = p.stored;
    this.isReadOnly = p.readOnly;
    this.nextSeq = p.nextSeq;
    this.bytes = p.bytes;
    ctx.dirs.set(p.header.id, p.dir);
  }

  /** A new session in group `dir` (written on its first assistant message). */
  static create(ctx: DbContext, o: { dir: string; cwd: string; parentSession?: string; id?: string; entries?: SessionEntry[]; header?: SessionHeader }): DbSessionLog {
    const header = o.header ?? newHeader(o.cwd, Date.now(), o.parentSession, undefined, o.id);
    const tree = new EntryTree(o.entries ?? [], header.name);
    return new DbSessionLog(ctx, { tree, header, cwd: o.cwd, dir: o.dir, stored: false, readOnly: false, nextSeq: 0, bytes: 0 });
  }

  /** An existing session, its writer lock taken unless `readOnly`. Missing → "not_found"; held → "busy". */
  static open(ctx: DbContext, id: string, o: { cwd: string; readOnly?: boolean }): DbSessionLog {
    const readOnly = o.readOnly ?? false;
    // the lock first: nobody appends between reading the index and writing after it
    if (!readOnly) takeLock(ctx, id);
    let cols: IndexColumns | undefined;
    try {
      cols = ctx.bridge.call<IndexColumns | undefined>("index", [id]);
      if (!cols) throw new PithError("not_found", `Session not found: ${refOf(id)}`);
    } catch (err) {
      if (!readOnly) releaseLock(ctx, id);
      throw err;
    }
    const header = headerOf(cols.header, refOf(id));
    const tree = new IndexedTree(dbRowSource(ctx.bridge, id), refOf(id), indexFromColumns(cols, refOf(id)), header.name);
    const log = new DbSessionLog(ctx, { tree, header, cwd: o.cwd, dir: cols.dir, stored: true, readOnly, nextSeq: cols.ids.length, bytes: cols.bytes });
    log.locked = !readOnly;
    return log;
  }

  get isPersisted(): boolean {
    return this.stored;
  }
  protected get readOnly(): boolean {
    return this.isReadOnly;
  }

  protected write(entry: SessionEntry): void {
    const tree = this.tree;
    if (tree instanceof IndexedTree) {
      const line = JSON.stringify(entry);
      let seq = -1;
      try {
        seq = this.store(entry, line);
      } finally {
        // a line that could not be stored lives in memory only (pinned), as a file's does
        tree.add(entry, seq, Buffer.byteLength(line, "utf8"));
      }
      return;
    }
    tree.add(entry);
    if (this.stored) {
      this.store(entry, JSON.stringify(entry));
      return;
    }
    const isAssistant = entry.type === "message" && entry.message.role === "assistant";
    if (isAssistant) this.materialize();
  }

  branchToNewFile(id: string): { store: DbSessionLog; text: string } {
    const { parts, text } = branchParts(this, id);
    return { store: this.derive(parts), text };
  }
  cloneToNewFile(): DbSessionLog {
    return this.derive(cloneParts(this));
  }
  ensureOnDisk(): void {
    if (!this.stored) this.materialize();
  }
  /** Every stored entry is committed already. */
  flush(): void {
    if (this.failure) throw this.failure;
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    if (!this.locked) return;
    this.locked = false;
    releaseLock(this.ctx, this.sessionId);
  }

  /** One entry, committed; returns its position. The first failure is latched. */
  private store(entry: SessionEntry, line: string): number {
    if (this.failure) throw this.failure;
    const seq = this.nextSeq;
    const row = entryRow(entry, seq, this.bytes, line);
    const bytes = this.bytes + lineBytes(line);
    const args = { sessionId: this.sessionId, row, isMessage: entry.type === "message" ? 1 : 0, firstMessage: firstMessageOf(entry), bytes };
    this.guard(() => this.ctx.bridge.call("append", [args]));
    this.nextSeq = seq + 1;
    this.bytes = bytes;
    return seq;
  }

  /** First write of a new session: its lock, then the header and every entry in one transaction. */
  private materialize(): void {
    this.guard(() => {
      if (!this.locked) {
        takeLock(this.ctx, this.sessionId);
        this.locked = true;
      }
      const entries = this.entries();
      const lines = entries.map((e) => JSON.stringify(e));
      const { session, rows, bytes } = sessionRows(this.hdr, JSON.stringify(this.hdr), this.dir, entries, lines);
      this.ctx.bridge.call("create", [session, rows, bytes]);
      this.stored = true;
      this.nextSeq = rows.length;
      this.bytes = bytes;
    });
  }

  private guard(fn: () => void): void {
    if (this.failure) throw this.failure;
    try {
      fn();
    } catch (err) {
      const code = err instanceof PithError ? err.code : "io";
      this.failure = new PithError(code, `Cannot store session ${this.path}: ${errorMessage(err)}. Its later entries are refused too: reopen it (switch_session) when the database is reachable`, { cause: err });
      throw this.failure;
    }
  }

  private derive(parts: DerivedParts): DbSessionLog {
    const log = DbSessionLog.create(this.ctx, { dir: this.dir, cwd: this.cwd, header: parts.header, entries: parts.entries });
    if (!parts.writeNow) return log;
    log.ensureOnDisk();
    if (!(this.tree instanceof IndexedTree)) return log;
    // copied from an indexed (large) session: hold the copy as an index too, not all of its entries
    log.close();
    return DbSessionLog.open(this.ctx, parts.header.id, { cwd: this.cwd });
  }
}

function takeLock(ctx: DbContext, id: string): void {
  if (ctx.open.has(id)) throw new PithError("busy", `Session is already open for writing in this process (pid ${process.pid}): ${refOf(id)}`);
  const answer = ctx.bridge.call<LockAnswer>("lock", [id]);
  if (!answer.taken) {
    const h = answer.holder;
    const who = h ? `host ${h.host}, pid ${h.pid}, since ${h.since}` : "holder unknown";
    throw new PithError("busy", `Session is open for writing in another pith process (${who}): ${refOf(id)}`);
  }
  ctx.open.add(id);
}

function releaseLock(ctx: DbContext, id: string): void {
  ctx.open.delete(id);
  try {
    ctx.bridge.call("unlock", [id]);
  } catch (err) {
    void err; // unreachable database: the lock ends with the connection anyway
  }
}

function headerOf(line: string, label: string): SessionHeader {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch (err) {
    void err; // reported below
  }
  if (rec === null || typeof rec !== "object" || Array.isArray(rec) || !isHeaderRecord(rec as Record<string, unknown>)) {
    throw new PithError("invalid_request", `Not a session (its header is damaged): ${label}`);
  }
  return migrate(rec as Record<string, unknown>, [], label).header;
}
