// The database connection of one pith process (runs in the store's worker thread). One
// connection carries every query and every writer lock of the process: PostgreSQL releases a
// session-level advisory lock when its connection ends, so a process that exits, is killed or
// loses its connection never keeps a session locked. A dropped connection is made again with
// backoff; the locks it held are taken again at once, and a lock that another process took in
// between is reported as lost (the session's writes then fail until it is reopened).
import pg from "pg";
import { errorMessage } from "../../shared/errors.js";
import { migrateSchema } from "./schema.js";
import { lockSql, type Holder } from "./lock-sql.js";

/** Backoff between connection attempts: 100 ms doubling to 2 s. */
const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 2_000;

/** SQLSTATE classes and codes that mean the connection (not the statement) failed. */
const CONNECTION_STATES = /^(08|57P0[1-4]|53300)/;

/** Whether `err` means the connection is gone (retry on a new one), not that the statement failed. */
export function isConnectionError(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code === "string" && CONNECTION_STATES.test(e.code)) return true;
  if (typeof e?.code === "string" && /^E[A-Z]+$/.test(e.code)) return true; // ECONNREFUSED, ENOENT, EPIPE, ...
  const message = typeof e?.message === "string" ? e.message : "";
  return /Connection terminated|Query read timeout|timeout expired|Client has encountered a connection error|not queryable|ECONN|socket/i.test(message);
}

export class Connection {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private migrated = false;
  /** Session ids whose writer lock this process holds (taken again after a reconnect). */
  readonly held = new Set<string>();
  /** Session ids whose lock was taken by another process while the connection was down. */
  readonly lost = new Map<string, string>();
  private background: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly holder: Holder,
    /** How long one operation keeps trying to reconnect before it fails (ms). */
    readonly reconnectMs: number,
  ) {}

  /**
   * Runs `fn` on a live connection before `deadline` (epoch ms). Without one, connecting is tried
   * (with backoff) for the reconnect window; when the connection fails under `fn`, a new one is
   * made the same way and `fn` runs again: `fn` must be safe to repeat.
   */
  async run<T>(fn: (c: pg.Client, timeoutMs: number) => Promise<T>, deadline: number): Promise<T> {
    for (;;) {
      const client = await this.ready(Math.min(deadline, Date.now() + this.reconnectMs));
      try {
        return await fn(client, Math.max(1, deadline - Date.now()));
      } catch (err) {
        if (!isConnectionError(err)) throw err;
        this.drop(client);
        if (Date.now() >= deadline) throw err;
      }
    }
  }

  /** Ends the connection (the process's locks go with it). */
  async close(): Promise<void> {
    if (this.background) clearTimeout(this.background);
    const c = this.client;
    this.client = undefined;
    this.held.clear();
    if (c) await c.end().catch((err: unknown) => void err); // already gone: nothing to end
  }

  /** A live connection, made (and the schema migrated, the held locks taken again) if needed. */
  private async ready(deadline: number): Promise<pg.Client> {
    if (this.client) return this.client;
    this.connecting ??= this.connectWithBackoff(deadline).finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connectWithBackoff(deadline: number): Promise<pg.Client> {
    let delay = FIRST_DELAY_MS;
    for (;;) {
      try {
        return await this.connectOnce(deadline);
      } catch (err) {
        if (!isConnectionError(err) || Date.now() + delay >= deadline) throw err;
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, MAX_DELAY_MS);
      }
    }
  }

  private async connectOnce(deadline: number): Promise<pg.Client> {
    const client = new pg.Client({ ...this.config, connectionTimeoutMillis: Math.max(1, Math.min(deadline - Date.now(), 10_000)) });
    // an idle connection that dies reports here; without a listener the worker would crash
    client.on("error", () => this.drop(client));
    client.on("end", () => this.drop(client));
    try {
      await client.connect();
      if (!this.migrated) {
        await migrateSchema(client);
        this.migrated = true;
      }
      await this.retakeLocks(client);
    } catch (err) {
      await client.end().catch((e: unknown) => void e); // the connection is useless either way
      throw err;
    }
    this.client = client;
    return client;
  }

  /** After a reconnect: the locks this process held, taken again; one held elsewhere now is lost. */
  private async retakeLocks(client: pg.Client): Promise<void> {
    for (const id of this.held) {
      const got = await client.query(lockSql.take, [id, this.holder.host, this.holder.pid]);
      if (got.rows[0]?.taken) continue;
      this.held.delete(id);
      const other = await client.query(lockSql.holder, [id]);
      const row = other.rows[0] as { host: string; pid: number } | undefined;
      const who = row ? `host ${row.host}, pid ${row.pid}` : "another process";
      this.lost.set(id, `the connection to the session database was lost and ${who} opened the session meanwhile`);
    }
  }

  /** Forgets a failed connection; while locks are held, a new one is made in the background. */
  private drop(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch((err: unknown) => void err); // already broken
    if (this.held.size > 0) this.reconnectSoon(FIRST_DELAY_MS);
  }

  /** Takes the held locks back as soon as the database answers again. */
  private reconnectSoon(delay: number): void {
    if (this.background) return;
    this.background = setTimeout(() => {
      this.background = undefined;
      if (this.client || this.held.size === 0) return;
      this.ready(Date.now() + delay).catch((err: unknown) => {
        void errorMessage(err); // still down: try again later
        this.reconnectSoon(Math.min(delay * 2, MAX_DELAY_MS));
      });
    }, delay);
    this.background.unref();
  }
}
