// The database schema pith keeps sessions in, created and migrated by pith itself. Migrations are
// numbered and applied in order inside one transaction that holds an advisory lock, so two
// processes starting at once never both migrate (the second waits, then finds nothing to do),
// and a database already at the latest version is left untouched.
import type pg from "pg";
import { PithError } from "../../shared/errors.js";

/** Serializes migrations across processes (a transaction-level advisory lock). */
const MIGRATION_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('pith:schema', 0))";

/** Each migration's statements; index + 1 is the version it brings the database to. */
export const MIGRATIONS: readonly (readonly string[])[] = [
  [
    // One row per session. `header` is the header line as written; the summary columns answer
    // list_sessions without reading entries; `bytes` is the session's size as a JSONL file.
    `CREATE TABLE pith_sessions (
      id text PRIMARY KEY,
      dir text NOT NULL,
      cwd text NOT NULL,
      header text NOT NULL,
      created_at text NOT NULL,
      modified_ms bigint NOT NULL,
      name text,
      first_message text,
      message_count integer NOT NULL DEFAULT 0,
      entry_count integer NOT NULL DEFAULT 0,
      bytes bigint NOT NULL,
      parent_session text
    )`,
    "CREATE INDEX pith_sessions_by_dir ON pith_sessions (dir, modified_ms DESC, id)",
    "CREATE INDEX pith_sessions_by_time ON pith_sessions (modified_ms DESC, id)",
    // One row per entry, `seq` its position in file order. `line` is the entry's JSON line as
    // written (export gives it back byte for byte); the small columns rebuild the tree's index
    // without reading lines; `byte_offset` is where the line starts in the JSONL form.
    `CREATE TABLE pith_entries (
      session_id text NOT NULL REFERENCES pith_sessions (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      entry_id text NOT NULL,
      parent_id text,
      type text NOT NULL,
      role text,
      custom_type text,
      first_kept text,
      label_target text,
      label text,
      info_name text,
      byte_offset bigint NOT NULL,
      line text NOT NULL,
      PRIMARY KEY (session_id, seq)
    )`,
    // Who holds a session's writer lock (the lock itself is an advisory lock): for the error a
    // refused opener sees.
    `CREATE TABLE pith_writers (
      session_id text PRIMARY KEY,
      host text NOT NULL,
      pid integer NOT NULL,
      backend_pid integer NOT NULL,
      since timestamptz NOT NULL DEFAULT now()
    )`,
  ],
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** Brings the database to SCHEMA_VERSION; refuses one a newer pith has migrated further. */
export async function migrateSchema(client: pg.Client): Promise<void> {
  await client.query("BEGIN");
  try {
    await client.query(MIGRATION_LOCK);
    await client.query("CREATE TABLE IF NOT EXISTS pith_schema (one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL)");
    const res = await client.query("SELECT version FROM pith_schema");
    const version = (res.rows[0]?.version as number | undefined) ?? 0;
    if (version > SCHEMA_VERSION) {
      throw new PithError("config", `The session database has schema version ${version}, newer than this pith knows (${SCHEMA_VERSION}): upgrade pith`);
    }
    for (let v = version; v < SCHEMA_VERSION; v++) for (const sql of MIGRATIONS[v]) await client.query(sql);
    if (version < SCHEMA_VERSION) {
      await client.query("INSERT INTO pith_schema (one, version) VALUES (true, $1) ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version", [SCHEMA_VERSION]);
    }
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch((e: unknown) => void e); // the connection may be gone; the server rolls back then
    throw err;
  }
}
