// The database store in-process: sessions written by one store (one connection, one process's
// worth) and read by another, locks across them, listings answered by SQL, appends idempotent.
import { afterEach, describe, expect, it } from "vitest";
import { usePostgres } from "../../../test/support/pg-test.js";
import { createPostgresStorage, type DatabaseStorage } from "./index.js";

const pgdb = usePostgres();
const opened: DatabaseStorage[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.close();
});

async function store(url = pgdb.url): Promise<DatabaseStorage> {
  const s = await createPostgresStorage({ url, env: {} });
  opened.push(s);
  return s;
}

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }], timestamp: 1 });
const reply = (text: string) => ({ role: "assistant" as const, content: [{ type: "text" as const, text }], api: "x", provider: "p", model: "m", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop" as const, timestamp: 2 });

describe("sessions in PostgreSQL", () => {
  it("writes a session on its first reply and another store reads it back", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const a = await store();
    const log = a.create({ dir: "/proj", cwd: "/proj" });
    log.appendMessage(user("hello"));
    expect(a.exists(log.path as string)).toBe(false);
    log.appendMessage(reply("hi there"));
    expect(log.path).toMatch(/^pg:[0-9a-f]+$/);
    expect(a.exists(log.path as string)).toBe(true);
    log.setName("greeting");
    log.close();

    const b = await store();
    const again = b.open(log.path as string, { cwd: "/elsewhere" });
    expect(again.entries().map((e) => e.id)).toEqual(log.entries().map((e) => e.id));
    expect(again.name).toBe("greeting");
    expect(again.contextBranch().length).toBe(3);
    again.appendMessage(user("more"));
    again.close();
    const page = await b.list({ dirs: ["/proj"] });
    expect(page.sessions).toMatchObject([{ path: log.path, id: log.sessionId, name: "greeting", messageCount: 3, firstMessage: "hello", cwd: "/proj" }]);
  });
});
