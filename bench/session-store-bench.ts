// The session stores side by side, in-process (the storage layer the session calls): the JSONL
// files and PostgreSQL (a throwaway cluster with PostgreSQL's default durability, on a Unix socket
// on this machine). Figures: each append's latency during a 2,000-turn run (median and p99: what
// the host waits for before an entry's frame), opening the ~100 MB session (what switch_session
// loads), and the first page of list_sessions over 10,000 sessions of one folder.
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, utimesSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { createJsonlStorage, type SessionStorage } from "../src/store/index.js";
import { createPostgresStorage } from "../src/store/postgres/index.js";
import { initCluster } from "../test/support/pg-cluster.js";
import { writeLargeSession } from "./lib/large-session.js";
import { makeTemp } from "./lib/temp.js";

export interface Figure {
  figure: string;
  value: number;
  unit: string;
}

const TURNS = 2_000;
const LISTED = 10_000;
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: Date.now() });
const reply = (text: string) => ({ role: "assistant" as const, content: [{ type: "text" as const, text }], api: "x", provider: "p", model: "m", usage, stopReason: "stop" as const, timestamp: Date.now() });

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs: number[]) => quantile(xs, 0.5);

function appendLatencies(storage: SessionStorage, dir: string): number[] {
  const log = storage.create({ dir, cwd: dir });
  const times: number[] = [];
  for (let i = 0; i < TURNS; i++) {
    for (const m of [user(`question ${i} ${"x".repeat(200)}`), reply(`answer ${i} ${"y".repeat(400)}`)]) {
      const t0 = performance.now();
      log.appendMessage(m);
      times.push(performance.now() - t0);
    }
  }
  log.close();
  return times.slice(2); // the first pair: the lazy first write of a new session
}

function timeOpen(storage: SessionStorage, ref: string, cwd: string, reps = 3): number {
  const times: number[] = [];
  for (let i = 0; i < reps; i++) {
    const t0 = performance.now();
    storage.open(ref, { cwd, readOnly: true }).close();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** The first listing (nothing cached) and the median of the next ones. */
async function timeList(storage: SessionStorage, dir: string, reps = 5): Promise<{ cold: number; warm: number }> {
  const times: number[] = [];
  for (let i = 0; i <= reps; i++) {
    const t0 = performance.now();
    await storage.list({ dirs: [dir], limit: 50 });
    times.push(performance.now() - t0);
  }
  return { cold: times[0], warm: median(times.slice(1)) };
}

function listFigures(name: string, t: { cold: number; warm: number }): Figure[] {
  const what = `list_sessions first page over ${LISTED.toLocaleString("en")} sessions, ${name}`;
  return [
    { figure: `${what}, first call`, value: t.cold, unit: "ms" },
    { figure: `${what}, again`, value: t.warm, unit: "ms" },
  ];
}

/** 10,000 small session files in `dir`, each with a different modification time. */
function writeManyFiles(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < LISTED; i++) {
    const id = `s${String(i).padStart(8, "0")}`;
    const file = path.join(dir, `2026-01-01T00-00-00-000Z_${id}.jsonl`);
    const fd = openSync(file, "w");
    const head = { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: dir };
    const u = { type: "message", id: `u${i}`, parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message: user(`task ${i}`) };
    writeSync(fd, `${JSON.stringify(head)}\n${JSON.stringify(u)}\n`);
    closeSync(fd);
    utimesSync(file, 1_700_000_000 + i, 1_700_000_000 + i);
  }
}

export async function benchSessionStores(log: (s: string) => void): Promise<Figure[]> {
  const runDir = mkdtempSync(path.join(tmpdir(), "pith-bench-pg-"));
  chmodSync(runDir, 0o755);
  let cluster;
  try {
    cluster = initCluster(runDir, { durable: true });
  } catch (err) {
    log(`session stores: PostgreSQL cannot start here (${(err as Error).message}); skipped`);
    return [];
  }
  const out: Figure[] = [];
  try {
    const url = await cluster.createDatabase("bench");
    const db = await createPostgresStorage({ url, env: {} });
    const jsonl = createJsonlStorage();
    const work = makeTemp("pith-bench-stores-");
    for (const [name, storage] of [["JSONL", jsonl], ["PostgreSQL", db]] as const) {
      log(`session stores: ${TURNS} turns appended to ${name}...`);
      const times = appendLatencies(storage, path.join(work, `append-${name}`));
      out.push({ figure: `append latency, ${name}, median (${TURNS}-turn run)`, value: median(times), unit: "ms" });
      out.push({ figure: `append latency, ${name}, p99 (${TURNS}-turn run)`, value: quantile(times, 0.99), unit: "ms" });
    }

    log("session stores: the ~100 MB session, written as a file and imported into the database...");
    mkdirSync(path.join(work, "big"));
    const big = writeLargeSession("pith", path.join(work, "big"), "/tmp");
    const t0 = performance.now();
    const imported = db.importFile(big.file, "/bench/big");
    out.push({ figure: "pith sessions import of the ~100 MB session", value: performance.now() - t0, unit: "ms" });
    out.push({ figure: "open the ~100 MB session (switch_session's load), JSONL", value: timeOpen(jsonl, big.file, "/tmp"), unit: "ms" });
    if (imported.ref) out.push({ figure: "open the ~100 MB session (switch_session's load), PostgreSQL", value: timeOpen(db, imported.ref, "/tmp"), unit: "ms" });

    log(`session stores: list_sessions over ${LISTED} sessions...`);
    const many = path.join(work, "many");
    writeManyFiles(many);
    out.push(...listFigures("JSONL", await timeList(jsonl, many)));
    await seedRows(url, cluster.password, cluster.socketDir, "/bench/many");
    out.push(...listFigures("PostgreSQL", await timeList(db, "/bench/many")));
    db.close();
  } finally {
    cluster.stop();
    rmSync(runDir, { recursive: true, force: true });
  }
  return out;
}

/** 10,000 session rows of group `dir` in one statement (a listing reads only pith_sessions). */
async function seedRows(url: string, password: string, host: string, dir: string): Promise<void> {
  const database = new URL(url.replace("@/", "@localhost/")).pathname.slice(1);
  const c = new pg.Client({ host, user: "pith", password, database });
  await c.connect();
  try {
    await c.query(
      `INSERT INTO pith_sessions (id, dir, cwd, header, created_at, modified_ms, first_message, message_count, entry_count, bytes)
       SELECT 'b' || lpad(i::text, 8, '0'), $1, $1, '{"type":"session"}', '2026-01-01T00:00:00.000Z', 1700000000000 + i * 1000, 'task ' || i, 1, 1, 100
       FROM generate_series(1, $2::int) AS i`,
      [dir, LISTED],
    );
  } finally {
    await c.end();
  }
}
