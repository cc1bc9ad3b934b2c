// The session stores a parameterized e2e file runs against: the JSONL files (as always) and the
// session database (`--session-store postgres://…`, the run's shared cluster, skipped with the
// reason where PostgreSQL cannot start). A session a test writes as a file is brought into the
// database with the same import `pith sessions import` runs, so one case serves both stores.
import fs from "node:fs";
import { afterAll } from "vitest";
import { createPostgresStorage, type DatabaseStorage } from "../../src/store/postgres/index.js";
import { usePostgres } from "../support/pg-test.js";

export type StoreKind = "jsonl" | "postgres";
export const STORES: readonly StoreKind[] = ["jsonl", "postgres"];

export interface Stores {
  /** Why `kind` cannot run here (undefined when it can). */
  skip(kind: StoreKind): string | undefined;
  /** The flags that give pith the store. */
  args(kind: StoreKind): string[];
  /** The session file as the store names it: the file itself, or `pg:<id>` once imported (into group `dir`). */
  seed(kind: StoreKind, file: string, dir?: string): Promise<string>;
  /** The stored lines of a session (header first), parsed: the file's, or the database's rows. */
  lines(kind: StoreKind, ref: string): Promise<Record<string, any>[]>;
}

export function useStores(): Stores {
  const pgdb = usePostgres();
  let db: DatabaseStorage | undefined;
  afterAll(() => db?.close());
  const database = async () => (db ??= await createPostgresStorage({ url: pgdb.url, env: {} }));
  return {
    skip: (kind) => (kind === "postgres" ? pgdb.skip : undefined),
    args: (kind) => (kind === "postgres" ? ["--session-store", pgdb.url] : []),
    async seed(kind, file, dir) {
      if (kind === "jsonl") return file;
      const got = (await database()).importFile(file, dir);
      if (!got.ref) throw new Error(`could not import ${file}: ${got.skipped}`);
      return got.ref;
    },
    async lines(kind, ref) {
      const text = kind === "jsonl" ? fs.readFileSync(ref, "utf8") : (await (await database()).readTail(ref, 0)).text;
      return text
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => JSON.parse(l) as Record<string, any>);
    },
  };
}
