// Sessions in PostgreSQL behind the same SessionStorage the JSONL folders implement. A session is
// named `pg:<session id>` wherever hosts see a session file path (get_state's sessionFile,
// list_sessions' path, switch_session's sessionPath); a "dir" is a group key (by default the
// session's cwd), so list_sessions, --continue and open_session work by project as with folders,
// and `all` lists every session of the database, whichever machine wrote it.
import { hostname } from "node:os";
import path from "node:path";
import { PithError } from "../../shared/errors.js";
import { SessionStore } from "../session-store.js";
import { decodeCursor, encodeCursor, pageLimit, type ListSessionsResult } from "../session-list.js";
import type { SessionSummary } from "../session-scan.js";
import type { SessionStorage, SessionTail } from "../storage.js";
import { DbBridge } from "./bridge.js";
import { DbSessionLog, REF_PREFIX, refOf, type DbContext } from "./db-log.js";
import type { DeleteAnswer, SummaryRow } from "./protocol.js";
import { driverEnv, parseStoreUrl } from "./store-url.js";
import { exportSessions, importSessionFile, type ExportResult, type ImportResult } from "./transfer.js";

/** A session id as pith and pi write them (snowflakes, UUIDs): what `pg:<id>` may name. */
const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export interface DatabaseStorage extends SessionStorage {
  /** `pith sessions import`: one JSONL session file into group `dir` (default: its header's cwd). */
  importFile(file: string, dir?: string): ImportResult;
  /** `pith sessions export`: every session into `<dir>/<cwd-slug>/<time>_<id>.jsonl`. */
  exportTo(dir: string, each: (r: ExportResult) => void): void;
  /** Ends the connection; every writer lock of this process is released with it. */
  close(): void;
}

function notAReference(ref: string): PithError {
  const shown = ref.length > 80 ? `${ref.slice(0, 80)}…` : ref;
  return new PithError(
    "invalid_request",
    `Not a session of the session database: "${shown}" (sessions are named pg:<session id>, as list_sessions gives them; import session files with: pith sessions import <folder>)`,
  );
}

/** The session id `ref` names (`pg:<id>`); PithError for anything else. */
export function idOf(ref: string): string {
  const id = ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : "";
  if (!SESSION_ID.test(id)) throw notAReference(ref);
  return id;
}

function summaryOf(r: SummaryRow): SessionSummary {
  const s: SessionSummary = { path: refOf(r.id), id: r.id, cwd: r.cwd, createdAt: r.createdAt, modifiedAt: new Date(r.modifiedMs).toISOString(), messageCount: r.messageCount };
  if (r.name !== null) s.name = r.name;
  if (r.firstMessage !== null) s.firstMessage = r.firstMessage;
  if (r.parentSession !== null) s.parentSession = r.parentSession;
  return s;
}

/** Connects (creating or migrating the schema); PithError naming why it cannot. */
export async function createPostgresStorage(o: { url: string; env: Record<string, string | undefined> }): Promise<DatabaseStorage> {
  const parsed = parseStoreUrl(o.url, o.env);
  const env = driverEnv(o.env);
  const bridge = new DbBridge({ url: parsed.url, env, host: hostname(), pid: process.pid, reconnectMs: parsed.reconnectMs, secrets: parsed.secrets }, env);
  try {
    await bridge.callAsync("init");
  } catch (err) {
    bridge.close();
    const e = err as PithError;
    throw new PithError(e.code === "config" ? "config" : "unavailable", `Cannot open the session database: ${e.message}`, { cause: err });
  }
  return databaseStorage({ bridge, open: new Set(), dirs: new Map() });
}

function databaseStorage(ctx: DbContext): DatabaseStorage {
  const { bridge } = ctx;
  const where = (id: string) => bridge.call<{ dir: string; cwd: string } | undefined>("where", [id]);
  const resolve = (ref: string): string => refOf(idOf(ref.trim()));
  return {
    kind: "postgres",
    create({ dir, cwd, parentSession }) {
      if (dir === undefined) return SessionStore.inMemory({ cwd, parentSession });
      return DbSessionLog.create(ctx, { dir, cwd, parentSession });
    },
    createAt(ref, { cwd }) {
      const id = idOf(ref);
      if (where(id)) throw new PithError("invalid_request", `Session already exists: ${refOf(id)}`);
      return DbSessionLog.create(ctx, { dir: path.resolve(cwd), cwd, id });
    },
    open: (ref, o) => DbSessionLog.open(ctx, idOf(ref), o),
    exists: (ref) => where(idOf(ref)) !== undefined,
    mostRecent(dir) {
      const id = bridge.call<string | undefined>("newest", [path.resolve(dir), false]);
      return id === undefined ? undefined : refOf(id);
    },
    dirFor: (_pithHome, cwd) => path.resolve(cwd),
    resolve: (ref) => resolve(ref),
    find(arg, o) {
      if (arg.startsWith(REF_PREFIX)) return resolve(arg);
      if (arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl")) throw notAReference(arg);
      const needle = arg.toLowerCase();
      const rows = needle === "" ? [] : bridge.call<{ id: string; dir: string; cwd: string }[]>("byPrefix", [needle]);
      const here = rows.find((r) => r.dir === path.resolve(o.dir));
      if (here) return refOf(here.id);
      if (rows.length > 0 && o.pithHome !== undefined) throw new PithError("invalid_request", `Session "${arg}" is in another project (${rows[0].cwd}).`);
      throw new PithError("not_found", `Session "${arg}" not found.`);
    },
    async list(q): Promise<ListSessionsResult> {
      const limit = pageLimit(q.limit);
      const after = q.cursor === undefined ? null : decodeCursor(q.cursor);
      const needle = q.query?.trim().toLowerCase() || null;
      const dirs = q.dirs.map((d) => path.resolve(d));
      const args = { dirs, all: q.all !== undefined, limit: limit + 1, after: after && { modifiedMs: after.mtimeMs, id: after.file }, needle };
      const rows = await bridge.callAsync<SummaryRow[]>("list", [args]);
      const page = rows.slice(0, limit);
      const sessions = page.map(summaryOf);
      const last = page[page.length - 1];
      return rows.length > limit ? { sessions, nextCursor: encodeCursor({ mtimeMs: last.modifiedMs, file: last.id }) } : { sessions };
    },
    async newestWithMessages(dir) {
      const id = await bridge.callAsync<string | undefined>("newest", [path.resolve(dir), true]);
      return id === undefined ? undefined : refOf(id);
    },
    inDir(ref, dir) {
      const id = idOf(ref);
      return (ctx.dirs.get(id) ?? where(id)?.dir) === path.resolve(dir);
    },
    delete(ref) {
      const target = resolve(ref);
      const id = idOf(target);
      if (ctx.open.has(id)) throw new PithError("busy", `Session is open in this process; close it first: ${target}`);
      const a = bridge.call<DeleteAnswer>("remove", [id]);
      if (a.deleted) return target;
      if ("missing" in a) throw new PithError("not_found", `Session not found: ${target}`);
      const who = a.holder ? `host ${a.holder.host}, pid ${a.holder.pid}` : "holder unknown";
      throw new PithError("busy", `Session is open in another pith process (${who}): ${target}`);
    },
    readTail: (ref, fromByte) => readTail(bridge, idOf(ref), fromByte),
    importFile: (file, dir) => importSessionFile(bridge, file, dir),
    exportTo: (dir, each) => exportSessions(bridge, dir, each),
    close: () => bridge.close(),
  };
}

/** The session's complete lines from `fromByte` of its JSONL form (header line first at 0). */
async function readTail(bridge: DbBridge, id: string, fromByte: number): Promise<SessionTail> {
  let start = Number.isFinite(fromByte) ? Math.max(0, Math.trunc(fromByte)) : 0;
  const got = await bridge.callAsync<{ header: string; bytes: number; lines: [number, string][] } | undefined>("tail", [id, start]);
  if (!got) return { text: "", fromByte: start, nextByte: start, reset: false };
  let reset = false;
  let lines = got.lines;
  if (start > got.bytes) {
    start = 0;
    reset = true;
    lines = (await bridge.callAsync<{ lines: [number, string][] }>("tail", [id, 0])).lines;
  }
  const texts = lines.map(([, line]) => line);
  if (start === 0) texts.unshift(got.header);
  return { text: texts.map((t) => t + "\n").join(""), fromByte: start, nextByte: Math.max(start, got.bytes), reset };
}
