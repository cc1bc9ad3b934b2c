// A session's writer lock in the database: a session-level advisory lock keyed by the session id
// (it lives exactly as long as the connection that took it), plus a `pith_writers` row naming
// the holder, which is what another process's refusal quotes.

/** The process that takes locks, as a refusal names it. */
export interface Holder {
  host: string;
  pid: number;
}

const KEY = "hashtextextended('pith:session:' || $1, 0)";

export const lockSql = {
  /** $1 session id, $2 host, $3 pid → `taken`: whether this connection now holds the lock. */
  take: `WITH l AS (SELECT pg_try_advisory_lock(${KEY}) AS taken),
    w AS (INSERT INTO pith_writers (session_id, host, pid, backend_pid, since)
          SELECT $1, $2, $3, pg_backend_pid(), now() FROM l WHERE l.taken
          ON CONFLICT (session_id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, backend_pid = EXCLUDED.backend_pid, since = EXCLUDED.since)
    SELECT taken FROM l`,
  /** $1 session id: releases the lock this connection holds, and its holder row. */
  release: `WITH d AS (DELETE FROM pith_writers WHERE session_id = $1 AND backend_pid = pg_backend_pid())
    SELECT pg_advisory_unlock(${KEY}) AS released`,
  /** $1 session id → the holder row, if any. */
  holder: "SELECT host, pid, to_char(since AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"') AS since FROM pith_writers WHERE session_id = $1",
  /** $1 session id → `free`: true when no connection holds the lock (held until the transaction ends). */
  probeInTransaction: `SELECT pg_try_advisory_xact_lock(${KEY}) AS free`,
};
