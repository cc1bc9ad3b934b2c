// From `--session-store postgres://…` and the standard PG* variables to the driver's connection
// settings (runs in the worker). The password, in libpq's order: the URL's, PGPASSWORD, then a
// password file: `?passfile=` in the URL, else PGPASSFILE, else ~/.pgpass (libpq's format,
// `host:port:database:user:password`, `*` matching anything; a file others can read is ignored
// with a warning, as libpq does). The worker's process.env holds only the PG* variables and HOME.
import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import path from "node:path";
import { parse } from "pg-connection-string";
import type pg from "pg";
import { getPassword, usePgPass } from "pgpass/lib/helper.js";
import { PithError } from "../../shared/errors.js";
import { secretForms } from "./redact.js";
import type { WorkerInit } from "./protocol.js";

/** URL parameters pith reads itself (never passed to the driver). */
export const PITH_URL_PARAMS = ["passfile", "reconnect_timeout"];

async function fromPassFile(file: string, info: { host?: string; port?: number; database?: string; user?: string }): Promise<string | undefined> {
  const st = await stat(file).catch((err: unknown) => void err); // no such file: no password from it
  if (!st || !usePgPass(st, file)) return undefined;
  return new Promise((resolve) => getPassword(info, createReadStream(file), resolve));
}

/** The driver's settings, and the password texts found (to keep out of messages). */
export async function clientConfig(init: WorkerInit): Promise<{ config: pg.ClientConfig; secrets: string[] }> {
  const parsed = parse(init.url) as Record<string, unknown>;
  const env = init.env;
  const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);
  const passfile = str(parsed.passfile) ?? str(env.PGPASSFILE) ?? (env.HOME ? path.join(env.HOME, ".pgpass") : undefined);
  for (const k of PITH_URL_PARAMS) delete parsed[k];
  const host = str(parsed.host) ?? str(env.PGHOST) ?? "localhost";
  const port = Number(str(parsed.port) ?? str(env.PGPORT) ?? 5432);
  const user = str(parsed.user) ?? str(env.PGUSER) ?? str(env.USER) ?? str(env.LOGNAME);
  const database = str(parsed.database) ?? str(env.PGDATABASE) ?? user;
  const secrets: string[] = [];
  const urlPassword = str(parsed.password);
  const config = {
    ...(parsed as pg.ClientConfig),
    host,
    port,
    user,
    database,
    application_name: `pith ${init.host} ${init.pid}`,
    password: async (): Promise<string> => {
      const found = urlPassword ?? str(env.PGPASSWORD) ?? (passfile ? await fromPassFile(passfile, { host, port, database, user }) : undefined);
      if (found === undefined) {
        throw new PithError("config", "The session database asks for a password and none was given: put it in a password file (?passfile= in the URL, PGPASSFILE or ~/.pgpass) or in PGPASSWORD");
      }
      secrets.push(...secretForms(found));
      return found;
    },
  } as pg.ClientConfig;
  secrets.push(...secretForms(urlPassword), ...secretForms(str(env.PGPASSWORD)));
  return { config, secrets };
}
