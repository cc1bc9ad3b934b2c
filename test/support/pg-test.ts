// What a test file that needs PostgreSQL uses: the run's shared cluster and a database of its own,
// or the reason there is none (the file's database tests skip with it).
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
  };
}
