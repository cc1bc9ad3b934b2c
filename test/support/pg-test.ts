// What a test file that needs PostgreSQL uses: the run's shared cluster and a database of its own,
// or the reason there is none (the file's database tests skip with it).
import { hostname } from "node:os";
import pg from "pg";
import { beforeAll, inject } from "vitest";
import { sharedCluster, type PgCluster } from "./pg-cluster.js";

export interface PgForTests {
  /** The file's own database, `postgres://pith@/<db>?host=…&passfile=…` (set in beforeAll). */
  url: string;
  cluster: PgCluster;
  /** Why there is no database here (undefined when there is one). */
  skip: string | undefined;
  /** Another fresh database of the same cluster. */
  freshDatabase(): Promise<string>;
  /** Runs one query as the `pith` role on the database of `url` (default: the file's). */
  query<T = Record<string, unknown>>(sql: string, values?: unknown[], url?: string): Promise<T[]>;
  /** The same as the superuser `postgres` (roles, ending other connections). */
  admin<T = Record<string, unknown>>(sql: string, values?: unknown[], url?: string): Promise<T[]>;
  /**
   * Resolves once the server has no connection left of the pith process `pid` (of this host). A
   * killed process's backend may still finish the statement it was sent, and holds its locks
   * until it has noticed the connection is gone.
   */
  connectionGone(pid: number): Promise<void>;
}

/** Registers a beforeAll that starts (or joins) the cluster and creates this file's database. */
export function usePostgres(): PgForTests {
  const state = { url: "", skip: undefined as string | undefined, cluster: undefined as PgCluster | undefined };
  beforeAll(async () => {
    const got = await sharedCluster(inject("pgRunDir"));
    if (typeof got === "string") {
      state.skip = got;
      return;
    }
    state.cluster = got;
    state.url = await got.createDatabase();
  }, 180_000);
  return {
    get url() {
      return state.url;
    },
    get skip() {
      return state.skip;
    },
    get cluster() {
      if (!state.cluster) throw new Error(state.skip ?? "the PostgreSQL cluster is not started yet (use it inside tests)");
      return state.cluster;
    },
    freshDatabase() {
      if (!state.cluster) throw new Error(state.skip ?? "the PostgreSQL cluster is not started yet");
      return state.cluster.createDatabase();
    },
    query: <T>(sql: string, values: unknown[] = [], url = state.url) => run<T>("pith", sql, values, url),
    admin: <T>(sql: string, values: unknown[] = [], url = state.url) => run<T>("postgres", sql, values, url),
    async connectionGone(pid: number) {
      const name = `pith ${hostname()} ${pid}`;
      const left = () => run("postgres", "SELECT 1 FROM pg_stat_activity WHERE application_name = $1", [name], state.url);
      while ((await left()).length > 0) await new Promise((r) => setTimeout(r, 5));
    },
  };

  async function run<T>(user: string, sql: string, values: unknown[], url: string): Promise<T[]> {
    const cluster = state.cluster as PgCluster;
    const database = decodeURIComponent(new URL(url.replace("@/", "@localhost/")).pathname.slice(1));
    const c = new pg.Client({ host: cluster.socketDir, user, password: cluster.password, database });
    await c.connect();
    try {
      return (await c.query(sql, values)).rows as T[];
    } finally {
      await c.end();
    }
  }
}
