// The database store in-process: sessions written by one store (its own worker and connection:
// another process's worth) and read by another, writer locks across them, listings answered by
// SQL, large sessions read on demand, appends idempotent, the schema migrated once.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { usePostgres } from "../../../test/support/pg-test.js";
import type { SessionEntry } from "../entry-types.js";
import { createPostgresStorage, type DatabaseStorage } from "./index.js";
import { DbBridge } from "./bridge.js";
import { entryRow } from "./entry-row.js";

const pgdb = usePostgres();
let a: DatabaseStorage;
let b: DatabaseStorage;
beforeAll(async () => {
  if (pgdb.skip) return;
  [a, b] = await Promise.all([createPostgresStorage({ url: pgdb.url, env: {} }), createPostgresStorage({ url: pgdb.url, env: {} })]);
}, 60_000);
afterAll(() => {
  a?.close();
  b?.close();
});

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: 1 });
const usage = { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const reply = (text: string) => ({ role: "assistant" as const, content: [{ type: "text" as const, text }], api: "x", provider: "p", model: "m", usage, stopReason: "stop" as const, timestamp: 2 });

const query = <T = Record<string, unknown>>(sql: string, values: unknown[] = []) => pgdb.query<T>(sql, values);

/** A stored session of `turns` user/assistant pairs in group `dir`. */
function session(s: DatabaseStorage, dir: string, turns: number, first = "hello") {
  const log = s.create({ dir, cwd: dir });
  for (let i = 0; i < turns; i++) {
    log.appendMessage(user(i === 0 ? first : `question ${i}`));
    log.appendMessage(reply(`answer ${i}`));
  }
  return log;
}

describe("sessions in PostgreSQL", () => {
  it("writes a session on its first reply; another store reads the same lines back and continues it", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const log = a.create({ dir: "/proj", cwd: "/proj" });
    log.appendMessage(user("hello"));
    expect(a.exists(log.path as string)).toBe(false);
    log.appendMessage(reply("hi there"));
    expect(log.path).toMatch(/^pg:[0-9a-f]+$/);
    expect(a.exists(log.path as string)).toBe(true);
    log.setName("greeting");
    const written = log.entries().map((e) => JSON.stringify(e));
    log.close();

    const again = b.open(log.path as string, { cwd: "/elsewhere" });
    expect(again.entries().map((e) => JSON.stringify(e))).toEqual(written);
    expect(again.name).toBe("greeting");
    expect(again.header).toEqual(log.header);
    again.appendMessage(user("more"));
    again.close();
    const rows = await query<{ line: string }>("SELECT line FROM pith_entries WHERE session_id = $1 ORDER BY seq", [log.sessionId]);
    expect(rows.slice(0, written.length).map((r) => r.line)).toEqual(written);
    expect(rows).toHaveLength(written.length + 1);
    const page = await b.list({ dirs: ["/proj"] });
    expect(page.sessions).toMatchObject([{ path: log.path, id: log.sessionId, name: "greeting", messageCount: 3, firstMessage: "hello", cwd: "/proj" }]);
    // get_subagent_messages reads it as its JSONL form, from any byte offset
    const tail = await b.readTail(log.path as string, 0);
    const lines = tail.text.split("\n").filter(Boolean);
    expect(JSON.parse(lines[0])).toMatchObject({ type: "session", id: log.sessionId });
    expect(lines.slice(1, written.length + 1)).toEqual(written);
    const next = await b.readTail(log.path as string, tail.nextByte);
    expect(next).toMatchObject({ text: "", fromByte: tail.nextByte, reset: false });
    expect((await b.readTail(log.path as string, tail.nextByte + 1000)).reset).toBe(true);
  });

  it("one writer per session: a second store is refused naming the holder, and gets it once released", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const log = session(a, "/locks", 1);
    expect(() => b.open(log.path as string, { cwd: "/x" })).toThrow(new RegExp(`open for writing in another pith process \\(host .+, pid ${process.pid}, since .+\\): ${log.path}`));
    expect(() => a.open(log.path as string, { cwd: "/x" })).toThrow(/already open for writing in this process/);
    expect(() => b.delete(log.path as string, "/x")).toThrow(/open in another pith process/);
    expect(() => a.delete(log.path as string, "/x")).toThrow(/open in this process/);
    // reading needs no lock
    expect(b.open(log.path as string, { cwd: "/x", readOnly: true }).entryCount).toBe(log.entryCount);
    log.close();
    const taken = b.open(log.path as string, { cwd: "/x" });
    expect(() => a.open(log.path as string, { cwd: "/x" })).toThrow(/another pith process/);
    taken.close();
    expect(b.delete(log.path as string, "/x")).toBe(log.path);
    expect(b.exists(log.path as string)).toBe(false);
    expect(() => b.open(log.path as string, { cwd: "/x" })).toThrow(/Session not found/);
  });

  it("lists by SQL: newest first, pages by cursor, matches the name and first message, all groups", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const made: ReturnType<typeof session>[] = [];
    for (let i = 0; i < 7; i++) {
      const log = session(a, i < 5 ? "/list/one" : "/list/two", 1, i === 3 ? "Refactor the PARSER" : `task ${i}`);
      log.close();
      made.push(log);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await b.list({ dirs: ["/list/one"], limit: 2, cursor });
      expect(page.sessions.length).toBeLessThanOrEqual(2);
      seen.push(...page.sessions.map((s) => s.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(made.slice(0, 5).reverse().map((l) => l.sessionId));
    expect((await b.list({ dirs: [], query: "parser" })).sessions).toEqual([]);
    expect((await b.list({ dirs: ["/list/one"], query: "parser" })).sessions.map((s) => s.id)).toEqual([made[3].sessionId]);
    const all = await b.list({ dirs: [], all: { pithHome: "/unused" }, limit: 10_000 });
    expect(all.sessions.map((s) => s.id)).toEqual(expect.arrayContaining(made.map((l) => l.sessionId)));
    await expect(b.list({ dirs: [], limit: 0 })).rejects.toThrow(/Invalid "limit"/);
    await expect(b.list({ dirs: [], cursor: "nope" })).rejects.toThrow(/Invalid "cursor"/);
    expect(b.mostRecent("/list/two")).toBe(made[6].path);
    expect(await b.newestWithMessages("/list/one")).toBe(made[4].path);
    // --session <id prefix>: here, or refused as another project's
    expect(b.find(made[2].sessionId.slice(0, 12), { dir: "/list/one", cwd: "/list/one" })).toBe(made[2].path);
    expect(() => b.find(made[2].sessionId, { dir: "/list/two", cwd: "/list/two", pithHome: "/h" })).toThrow(/is in another project \(\/list\/one\)/);
    expect(() => b.find("ffffffffffffffffff", { dir: "/list/two", cwd: "/list/two" })).toThrow(/not found/);
    expect(() => b.resolve("/some/file.jsonl", "/")).toThrow(/pg:<session id>/);
  });

  it("opens a large session as an index plus its context, and reads older entries on demand", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const log = session(a, "/large", 400);
    log.append({ type: "compaction", summary: "earlier work", firstKeptEntryId: log.entries()[780].id, tokensBefore: 100 } as never);
    log.appendMessage(user("after compaction"));
    log.close();
    const again = b.open(log.path as string, { cwd: "/large" });
    expect(again.entryCount).toBe(802);
    const ctxBranch = again.contextBranch();
    expect(ctxBranch[0].type).toBe("message"); // the latest model source before the kept part
    expect(ctxBranch.at(-1)).toMatchObject({ type: "message", message: { content: [{ text: "after compaction" }] } });
    expect(again.getEntry(log.entries()[5].id)).toEqual(log.entries()[5]);
    expect(again.branch().length).toBe(802);
    expect(again.userMessageEntries()).toHaveLength(401);
    again.appendMessage(reply("answer after reopening"));
    expect(again.entriesAfter(log.entries()[800].id)?.map((e) => e.type)).toEqual(["message", "message"]);
    again.close();
  });

  it("branch and clone make new stored sessions naming their parent", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const log = session(a, "/derive", 3);
    const second = log.userMessageEntries()[1];
    const { store: branched, text } = log.branchToNewFile(second.entryId);
    expect(text).toBe("question 1");
    expect(branched.path).toMatch(/^pg:/);
    expect(branched.header.parentSession).toBe(log.path);
    expect(branched.entries()).toHaveLength(2);
    branched.close();
    const clone = log.cloneToNewFile();
    expect(clone.entries().map((e) => e.id)).toEqual(log.branch().map((e) => e.id));
    clone.close();
    log.close();
    expect(b.open(branched.path as string, { cwd: "/", readOnly: true }).entries()).toHaveLength(2);
    expect(b.inDir(clone.path as string, "/derive")).toBe(true);
  });

  it("an append repeated after a lost answer stores the entry once; a stale writer is refused", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const log = session(a, "/idem", 1);
    log.close();
    const bridge = new DbBridge({ url: pgdb.url, env: {}, host: "test", pid: 1, reconnectMs: 5_000, secrets: [] }, {});
    try {
      const count = log.entryCount;
      const entry = { type: "message", id: "retried1", parentId: log.leafId, timestamp: new Date().toISOString(), message: user("once") } as SessionEntry;
      const line = JSON.stringify(entry);
      const row = entryRow(entry, count, 10_000, line);
      const args = { sessionId: log.sessionId, row, isMessage: 1, firstMessage: null, bytes: 20_000 };
      bridge.call("append", [args]);
      bridge.call("append", [args]); // the retry of a commit whose answer was lost
      const stored = await query<{ n: string }>("SELECT count(*) AS n FROM pith_entries WHERE session_id = $1 AND entry_id = 'retried1'", [log.sessionId]);
      expect(Number(stored[0].n)).toBe(1);
      // another entry at the same position: a second writer, refused
      const other = { ...args, row: { ...row, entryId: "intruder" } };
      expect(() => bridge.call("append", [other])).toThrow(/written by another process/);
    } finally {
      bridge.close();
    }
  });

  it("migrates a fresh database once when several processes start at the same time", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const url = await pgdb.freshDatabase();
    const stores = await Promise.all([1, 2, 3].map(() => createPostgresStorage({ url, env: {} })));
    try {
      expect(await pgdb.query("SELECT version FROM pith_schema", [], url)).toEqual([{ version: 1 }]);
      const log = session(stores[0], "/m", 1);
      log.close();
      expect(stores[2].exists(log.path as string)).toBe(true);
    } finally {
      for (const s of stores) s.close();
    }
  });
});
