// Where this process keeps its sessions: `--session-store`, else PITH_SESSION_STORE, else the
// global setting `sessionStore`; a postgres:// URL selects the database (its code, and the
// driver, are loaded only then), "jsonl" or nothing the session files. One store per process,
// shared by every session it holds (ACP composes one session per editor tab).
import { PithError } from "../shared/errors.js";
import { createJsonlStorage, type SessionStorage } from "../session/index.js";
import type { ParsedArgs } from "./args.js";
import type { SettingsSource } from "./project-layer.js";

/** Environment variables never handed to tools: pith's own store URL, and the password of its database. */
export function storeSecretEnv(storage: SessionStorage): string[] {
  return storage.kind === "postgres" ? ["PITH_SESSION_STORE", "PGPASSWORD"] : ["PITH_SESSION_STORE"];
}

const DATABASE_URL = /^postgres(ql)?:\/\//i;

/** One per process and value. A database store's connection ends with the process (its worker thread does not keep pith running), and its writer locks with it. */
const stores = new Map<string, Promise<SessionStorage>>();

/** The store's URL (or "jsonl"): the flag wins, then the environment, then the global settings file. */
export function sessionStoreSetting(args: ParsedArgs, source: SettingsSource, env: Record<string, string | undefined>): string {
  const setting = source.global?.values.sessionStore;
  return (args.sessionStore ?? env.PITH_SESSION_STORE ?? (typeof setting === "string" ? setting : "")).trim();
}

export function sessionStorageFor(args: ParsedArgs, source: SettingsSource, env: Record<string, string | undefined>): Promise<SessionStorage> {
  const value = sessionStoreSetting(args, source, env);
  let store = stores.get(value);
  if (!store) {
    store = openStore(value, env);
    stores.set(value, store);
  }
  return store;
}

async function openStore(value: string, env: Record<string, string | undefined>): Promise<SessionStorage> {
  if (value === "" || value.toLowerCase() === "jsonl") return createJsonlStorage();
  // the value may hold a password: never quote it
  if (!DATABASE_URL.test(value)) throw new PithError("config", 'Invalid session store: expected a postgres:// (or postgresql://) URL, or "jsonl"');
  const { createPostgresStorage } = await import("../store/postgres/index.js");
  return createPostgresStorage({ url: value, env });
}
