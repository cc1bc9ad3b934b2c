// `--session-store postgres://…` as the main thread sees it: checked (without ever echoing it),
// the texts to keep out of every message (the URL, its password, PGPASSWORD), and pith's own
// parameter `reconnect_timeout` (seconds an operation keeps reconnecting before it fails).
// The driver's settings are made from the same URL in the worker (client-config.ts).
import { PithError } from "../../shared/errors.js";
import { secretForms } from "./redact.js";

/** Default reconnect window: a database restart (seconds) is ridden out, a longer outage fails clearly. */
export const DEFAULT_RECONNECT_MS = 10_000;

export interface StoreUrl {
  /** The URL as given: handed to the worker only, never shown. */
  url: string;
  /** Texts never to let out in a message. */
  secrets: string[];
  /** How long one operation keeps reconnecting before it fails (ms). */
  reconnectMs: number;
}

/** Whether `value` names a PostgreSQL session store. */
export function isDatabaseUrl(value: string): boolean {
  return /^postgres(ql)?:\/\//i.test(value.trim());
}

const invalid = (why: string) => new PithError("config", `Invalid session store URL (${why}); expected postgres://[user@]host[:port]/database[?passfile=/path]`);

/** Checks `--session-store`; PithError ("config") that never quotes the URL. */
export function parseStoreUrl(value: string, env: Record<string, string | undefined>): StoreUrl {
  const url = value.trim();
  if (!isDatabaseUrl(url)) throw invalid("not a postgres:// or postgresql:// URL");
  let parsed: URL;
  try {
    // `postgres://user@/db?host=/socket/dir` has no host part: the WHATWG parser needs one
    parsed = new URL(url.replace(/@\//, "@localhost/"));
  } catch (err) {
    void err; // its message quotes the URL
    throw invalid("it cannot be parsed");
  }
  const secrets = [url, ...secretForms(parsed.password), ...secretForms(env.PGPASSWORD)];
  if (parsed.password) secrets.push(`${parsed.username}:${parsed.password}@`);
  const timeout = parsed.searchParams.get("reconnect_timeout");
  let reconnectMs = DEFAULT_RECONNECT_MS;
  if (timeout !== null) {
    const seconds = Number(timeout);
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) throw invalid("reconnect_timeout must be a number of seconds from 0 to 3600");
    reconnectMs = Math.round(seconds * 1000);
  }
  return { url, secrets, reconnectMs };
}

/** The part of pith's environment the driver reads: the PG* variables and HOME (for ~/.pgpass). */
export function driverEnv(env: Record<string, string | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && (k.startsWith("PG") || k === "HOME" || k === "USER" || k === "LOGNAME")) out[k] = v;
  return out;
}
