// The operations the database worker runs, one SQL round trip (or one transaction) each. Every
// operation is safe to run again on a new connection after the old one failed mid-way: appends
// are idempotent by (session, position, entry id), creations by the session id and header.
import type pg from "pg";
import { PithError } from "../../shared/errors.js";
import type { Connection } from "./connection.js";
import { lockSql, type Holder } from "./lock-sql.js";
import type { AppendArgs, DeleteAnswer, EntryRow, HolderRow, IndexColumns, ListArgs, LockAnswer, NewSessionRow, SummaryRow } from "./protocol.js";

type Op = (db: Connection, deadline: number, holder: Holder, ...args: never[]) => Promise<unknown>;

/** The server's clock in epoch ms: every process orders sessions by the same clock. */
const NOW_MS = "(extract(epoch from clock_timestamp()) * 1000)::bigint";
/** Lines per INSERT when a session is created with entries (bounded statement size). */
const CHUNK_ROWS = 2_000;

const q = (c: pg.Client, timeoutMs: number, text: string, values: unknown[] = []) => c.query({ text, values, query_timeout: timeoutMs } as pg.QueryConfig);

async function holderOf(c: pg.Client, t: number, id: string): Promise<HolderRow | null> {
  const r = await q(c, t, lockSql.holder, [id]);
  return (r.rows[0] as HolderRow | undefined) ?? null;
}

const ENTRY_COLUMNS = "session_id, seq, entry_id, parent_id, type, role, custom_type, first_kept, label_target, label, info_name, byte_offset, line";

async function insertEntries(c: pg.Client, t: number, sessionId: string, rows: readonly EntryRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK_ROWS) {
    const part = rows.slice(i, i + CHUNK_ROWS);
    const col = <K extends keyof EntryRow>(k: K) => part.map((r) => r[k]);
    await q(
      c,
      t,
      `INSERT INTO pith_entries (${ENTRY_COLUMNS})
       SELECT $1, * FROM unnest($2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::float8[], $13::text[])`,
      [sessionId, col("seq"), col("entryId"), col("parentId"), col("type"), col("role"), col("customType"), col("firstKept"), col("labelTarget"), col("label"), col("infoName"), col("offset"), col("line")],
    );
  }
}

async function inTransaction<T>(c: pg.Client, t: number, fn: () => Promise<T>): Promise<T> {
  await q(c, t, "BEGIN");
  try {
    const out = await fn();
    await q(c, t, "COMMIT");
    return out;
  } catch (err) {
    await q(c, t, "ROLLBACK").catch((e: unknown) => void e); // a dead connection rolls back by itself
    throw err;
  }
}

export const OPS: Record<string, Op> = {
  /** Connects (migrating the schema) or fails. */
  init: (db, deadline) => db.run(async () => undefined, deadline),
  /** Ends the connection: every lock this process holds is released with it. */
  close: (db) => db.close(),

  async lock(db, deadline, holder, id: string): Promise<LockAnswer> {
    return db.run(async (c, t) => {
      const r = await q(c, t, lockSql.take, [id, holder.host, holder.pid]);
      if (!r.rows[0]?.taken) return { taken: false, holder: await holderOf(c, t, id) };
      db.held.add(id);
      db.lost.delete(id);
      return { taken: true };
    }, deadline);
  },

  async unlock(db, deadline, _holder, id: string): Promise<void> {
    const held = db.held.delete(id);
    db.lost.delete(id);
    // a lock lost with its connection needs no release
    if (held) await db.run((c, t) => q(c, t, lockSql.release, [id]), deadline);
  },

  /** A new session with its first entries, in one transaction (`modifiedMs`: an import's file time). */
  async create(db, deadline, _holder, s: NewSessionRow, rows: EntryRow[], bytes: number, modifiedMs: number | null = null): Promise<void> {
    await db.run(
      (c, t) =>
        inTransaction(c, t, async () => {
          const made = await q(
            c,
            t,
            `INSERT INTO pith_sessions (id, dir, cwd, header, created_at, modified_ms, name, first_message, message_count, entry_count, bytes, parent_session)
             VALUES ($1, $2, $3, $4, $5, COALESCE($12::bigint, ${NOW_MS}), $6, $7, $8, $9, $10, $11) ON CONFLICT (id) DO NOTHING`,
            [s.id, s.dir, s.cwd, s.header, s.createdAt, s.name, s.firstMessage, s.messageCount, rows.length, bytes, s.parentSession, modifiedMs],
          );
          if (made.rowCount === 1) return insertEntries(c, t, s.id, rows);
          // a retry of a creation that committed before its answer was lost finds itself
          const found = await q(c, t, "SELECT header, entry_count FROM pith_sessions WHERE id = $1", [s.id]);
          const row = found.rows[0] as { header: string; entry_count: number } | undefined;
          if (row?.header !== s.header || row.entry_count !== rows.length) throw new PithError("invalid_request", `A session with id ${s.id} already exists in the session database`);
        }),
      deadline,
    );
  },

  /** One entry, committed with the session's summary in one statement. */
  async append(db, deadline, _holder, a: AppendArgs): Promise<void> {
    const r = a.row;
    await db.run(async (c, t) => {
      // known only once connected again: the reconnect is what finds the lock taken
      const lost = db.lost.get(a.sessionId);
      if (lost) throw new PithError("busy", `Session ${a.sessionId} is no longer open for writing here: ${lost}; reopen it`);
      const res = await q(
        c,
        t,
        `WITH ins AS (
           INSERT INTO pith_entries (${ENTRY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
           ON CONFLICT (session_id, seq) DO NOTHING RETURNING 1)
         UPDATE pith_sessions SET modified_ms = ${NOW_MS}, entry_count = entry_count + 1, message_count = message_count + $14,
           first_message = COALESCE(first_message, $15), name = COALESCE(NULLIF(btrim($11), ''), name), bytes = $16
         WHERE id = $1 AND EXISTS (SELECT 1 FROM ins)`,
        [a.sessionId, r.seq, r.entryId, r.parentId, r.type, r.role, r.customType, r.firstKept, r.labelTarget, r.label, r.infoName, r.offset, r.line, a.isMessage, a.firstMessage, a.bytes],
      );
      if (res.rowCount === 1) return;
      // nothing written: our own earlier attempt (committed, answer lost), or another writer
      const at = await q(c, t, "SELECT entry_id FROM pith_entries WHERE session_id = $1 AND seq = $2", [a.sessionId, r.seq]);
      const there = at.rows[0]?.entry_id as string | undefined;
      if (there === r.entryId) return;
      if (there === undefined) throw new PithError("not_found", `Session ${a.sessionId} no longer exists in the session database`);
      throw new PithError("busy", `Session ${a.sessionId} was written by another process (entry ${r.seq + 1} is not this one's); reopen it`);
    }, deadline);
  },

  /** Every entry's small columns, in file order (no lines): what opening a session reads. */
  async index(db, deadline, _holder, id: string): Promise<IndexColumns | undefined> {
    return db.run(async (c, t) => {
      const s = await q(c, t, "SELECT header, dir, bytes::float8 AS bytes FROM pith_sessions WHERE id = $1", [id]);
      const head = s.rows[0] as { header: string; dir: string; bytes: number } | undefined;
      if (!head) return undefined;
      const res = await c.query({
        text: "SELECT entry_id, parent_id, type, role, custom_type, first_kept, label_target, label, info_name, octet_length(line) FROM pith_entries WHERE session_id = $1 ORDER BY seq",
        values: [id],
        rowMode: "array",
        query_timeout: t,
      } as pg.QueryArrayConfig);
      const cols: IndexColumns = { ...head, ids: [], parents: [], types: [], roles: [], customTypes: [], firstKept: [], labelTargets: [], labels: [], infoNames: [], lengths: [] };
      for (const row of res.rows as unknown[][]) {
        cols.ids.push(row[0] as string);
        cols.parents.push(row[1] as string | null);
        cols.types.push(row[2] as string);
        cols.roles.push(row[3] as string | null);
        cols.customTypes.push(row[4] as string | null);
        cols.firstKept.push(row[5] as string | null);
        cols.labelTargets.push(row[6] as string | null);
        cols.labels.push(row[7] as string | null);
        cols.infoNames.push(row[8] as string | null);
        cols.lengths.push(row[9] as number);
      }
      return cols;
    }, deadline);
  },

  /** The lines at positions `seqs` (as [seq, line] pairs; a missing one is left out). */
  async lines(db, deadline, _holder, id: string, seqs: number[]): Promise<[number, string][]> {
    return db.run(async (c, t) => {
      const res = await q(c, t, "SELECT seq, line FROM pith_entries WHERE session_id = $1 AND seq = ANY($2::int[])", [id, seqs]);
      return (res.rows as { seq: number; line: string }[]).map((r) => [r.seq, r.line] as [number, string]);
    }, deadline);
  },

  /** The lines whose JSONL offset is at or after `fromByte`, with the header when that is 0. */
  async tail(db, deadline, _holder, id: string, fromByte: number): Promise<{ header: string; bytes: number; lines: [number, string][] } | undefined> {
    return db.run(async (c, t) => {
      const s = await q(c, t, "SELECT header, bytes::float8 AS bytes FROM pith_sessions WHERE id = $1", [id]);
      const head = s.rows[0] as { header: string; bytes: number } | undefined;
      if (!head) return undefined;
      const res = await q(c, t, "SELECT byte_offset::float8 AS o, line FROM pith_entries WHERE session_id = $1 AND byte_offset >= $2 ORDER BY seq", [id, fromByte]);
      return { ...head, lines: (res.rows as { o: number; line: string }[]).map((r) => [r.o, r.line] as [number, string]) };
    }, deadline);
  },

  async list(db, deadline, _holder, a: ListArgs): Promise<SummaryRow[]> {
    return db.run(async (c, t) => {
      const res = await q(
        c,
        t,
        `SELECT id, dir, cwd, created_at AS "createdAt", modified_ms::float8 AS "modifiedMs", name, first_message AS "firstMessage",
                message_count AS "messageCount", parent_session AS "parentSession"
         FROM pith_sessions
         WHERE ($1 OR dir = ANY($2::text[]))
           AND ($3::text IS NULL OR strpos(lower(coalesce(name, '')), $3) > 0 OR strpos(lower(coalesce(first_message, '')), $3) > 0)
           AND ($4::bigint IS NULL OR modified_ms < $4 OR (modified_ms = $4 AND id > $5))
         ORDER BY modified_ms DESC, id ASC LIMIT $6`,
        [a.all, a.dirs, a.needle, a.after?.modifiedMs ?? null, a.after?.id ?? "", a.limit],
      );
      return res.rows as SummaryRow[];
    }, deadline);
  },

  /** The newest session of `dir` (optionally: holding a message). */
  async newest(db, deadline, _holder, dir: string, withMessages: boolean): Promise<string | undefined> {
    return db.run(async (c, t) => {
      const res = await q(c, t, "SELECT id FROM pith_sessions WHERE dir = $1 AND ($2 = false OR message_count > 0) ORDER BY modified_ms DESC, id ASC LIMIT 1", [dir, withMessages]);
      return res.rows[0]?.id as string | undefined;
    }, deadline);
  },

  /** Where session `id` is kept (its group and cwd), if it exists. */
  async where(db, deadline, _holder, id: string): Promise<{ dir: string; cwd: string } | undefined> {
    return db.run(async (c, t) => (await q(c, t, "SELECT dir, cwd FROM pith_sessions WHERE id = $1", [id])).rows[0] as { dir: string; cwd: string } | undefined, deadline);
  },

  /** Sessions whose id starts with `prefix` (lower case), newest first. */
  async byPrefix(db, deadline, _holder, prefix: string): Promise<{ id: string; dir: string; cwd: string }[]> {
    return db.run(async (c, t) => {
      const res = await q(c, t, "SELECT id, dir, cwd FROM pith_sessions WHERE starts_with(lower(id), $1) ORDER BY modified_ms DESC, id ASC LIMIT 100", [prefix]);
      return res.rows as { id: string; dir: string; cwd: string }[];
    }, deadline);
  },

  /** Deletes a session no connection holds the writer lock of. */
  async remove(db, deadline, _holder, id: string): Promise<DeleteAnswer> {
    return db.run(
      (c, t) =>
        inTransaction(c, t, async (): Promise<DeleteAnswer> => {
          const probe = await q(c, t, lockSql.probeInTransaction, [id]);
          if (!probe.rows[0]?.free) return { deleted: false, holder: await holderOf(c, t, id) };
          const del = await q(c, t, "DELETE FROM pith_sessions WHERE id = $1", [id]);
          await q(c, t, "DELETE FROM pith_writers WHERE session_id = $1", [id]);
          return del.rowCount === 1 ? { deleted: true } : { deleted: false, missing: true };
        }),
      deadline,
    );
  },

  /** Every line of a session (export), header first, with its group and last change. */
  async dump(db, deadline, _holder, id: string): Promise<{ header: string; dir: string; modifiedMs: number; lines: string[] } | undefined> {
    return db.run(async (c, t) => {
      const s = await q(c, t, `SELECT header, dir, modified_ms::float8 AS "modifiedMs" FROM pith_sessions WHERE id = $1`, [id]);
      const head = s.rows[0] as { header: string; dir: string; modifiedMs: number } | undefined;
      if (!head) return undefined;
      const res = await q(c, t, "SELECT line FROM pith_entries WHERE session_id = $1 ORDER BY seq", [id]);
      return { ...head, lines: (res.rows as { line: string }[]).map((r) => r.line) };
    }, deadline);
  },

  /** Every session id (export), oldest first. */
  async ids(db, deadline): Promise<string[]> {
    return db.run(async (c, t) => ((await q(c, t, "SELECT id FROM pith_sessions ORDER BY modified_ms ASC, id ASC")).rows as { id: string }[]).map((r) => r.id), deadline);
  },
};
