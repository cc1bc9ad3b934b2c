// A dropped connection is made again and the writer lock taken back; a lock another process took
// while the connection was down is reported as lost, never written over; an unreachable database
// fails within the reconnect window with a message that carries no password.
import { afterEach, describe, expect, it } from "vitest";
import { usePostgres } from "../../../test/support/pg-test.js";
import { createPostgresStorage, type DatabaseStorage } from "./index.js";

const pgdb = usePostgres();
const opened: DatabaseStorage[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});
async function store(url: string): Promise<DatabaseStorage> {
  const s = await createPostgresStorage({ url, env: {} });
  opened.push(s);
  return s;
}

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: 1 });
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const reply = (text: string) => ({ role: "assistant" as const, content: [{ type: "text" as const, text }], api: "x", provider: "p", model: "m", usage, stopReason: "stop" as const, timestamp: 2 });

/** Ends the connections of the pith processes whose application_name mentions `who`. */
async function dropConnections(who: string): Promise<number> {
  const rows = await pgdb.admin<{ n: string }>("SELECT count(pg_terminate_backend(pid)) AS n FROM pg_stat_activity WHERE application_name LIKE $1 AND pid <> pg_backend_pid()", [`%${who}%`]);
  return Number(rows[0].n);
}

describe("faults of the session database", () => {
  it("a dropped connection is made again: the next append is stored once and the lock is still held", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const a = await store(pgdb.url);
    const b = await store(pgdb.url);
    const log = a.create({ dir: "/f", cwd: "/f" });
    log.appendMessage(user("before"));
    log.appendMessage(reply("stored"));
    // both stores are this process: end every pith connection of this pid, then use only A
    expect(await dropConnections(`pith `)).toBeGreaterThan(0);
    log.appendMessage(user("after the drop"));
    const rows = await pgdb.query<{ entry_id: string }>("SELECT entry_id FROM pith_entries WHERE session_id = $1 ORDER BY seq", [log.sessionId]);
    expect(rows.map((r) => r.entry_id)).toEqual(log.entries().map((e) => e.id));
    expect(() => b.open(log.path as string, { cwd: "/f" })).toThrow(/open for writing in another pith process/);
    log.close();
  });

  it("a lock taken by another process while the connection was down is lost: appends are refused, nothing is written over", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const pw = pgdb.cluster.password;
    await pgdb.admin(`DO $$ BEGIN CREATE ROLE pith_a LOGIN PASSWORD '${pw}' IN ROLE pith; EXCEPTION WHEN duplicate_object THEN NULL; END $$`);
    const urlA = pgdb.url.replace("postgres://pith@", `postgres://pith_a:${pw}@`).replace(/&passfile=[^&]*/, "");
    const a = await store(urlA);
    const b = await store(pgdb.url);
    const log = a.create({ dir: "/lost", cwd: "/lost" });
    log.appendMessage(user("a writes"));
    log.appendMessage(reply("a stored"));
    await pgdb.admin("ALTER ROLE pith_a NOLOGIN");
    try {
      await pgdb.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = 'pith_a'");
      const stolen = b.open(log.path as string, { cwd: "/lost" });
      stolen.appendMessage(user("b writes meanwhile"));
      await pgdb.admin("ALTER ROLE pith_a LOGIN");
      expect(() => log.appendMessage(user("a again"))).toThrow(/no longer open for writing here: .*opened the session meanwhile/);
      expect(() => log.appendMessage(user("a once more"))).toThrow(/Cannot store session/);
      stolen.close();
    } finally {
      await pgdb.admin("ALTER ROLE pith_a LOGIN");
    }
    const texts = await pgdb.query<{ line: string }>("SELECT line FROM pith_entries WHERE session_id = $1 ORDER BY seq", [log.sessionId]);
    expect(texts.map((r) => JSON.parse(r.line).message.content[0].text)).toEqual(["a writes", "a stored", "b writes meanwhile"]);
    log.close();
  });

  it("an unreachable database fails within the reconnect window, naming no password", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const started = Date.now();
    const url = "postgres://ann:s3cret-pw@/pith?host=/nonexistent-pith-socket-dir&reconnect_timeout=1";
    const err = await createPostgresStorage({ url, env: {} }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.message).toMatch(/^Cannot open the session database: /);
    expect(err?.message).not.toContain("s3cret-pw");
    expect(err?.message).not.toContain("postgres://ann");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("a wrong password is a clear configuration error, not retried", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const url = pgdb.url.replace("postgres://pith@", "postgres://pith:wrong-pw-123@").replace(/&passfile=[^&]*/, "");
    const err = await createPostgresStorage({ url, env: {} }).then(
      () => undefined,
      (e: Error & { code?: string }) => e,
    );
    expect(err?.message).toMatch(/password authentication failed/);
    expect(err?.message).not.toContain("wrong-pw-123");
    expect((err as { code?: string }).code).toBe("config");
  });
});
