// list_sessions over generated folders: order, paging, query, damaged files, the cache.
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearSessionListCache, listSessions, listSessionsWatched, projectDirsOf } from "./session-list.js";

function header(id: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/proj", ...extra });
}
function msg(id: string, role: string, text: string): string {
  const message = role === "user" ? { role, content: [{ type: "text", text }], timestamp: 1 } : { role, content: [{ type: "text", text }], timestamp: 1 };
  return JSON.stringify({ type: "message", id, parentId: null, timestamp: "2026-01-01T00:00:01.000Z", message });
}
function write(dir: string, name: string, lines: string[], mtime: number): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, lines.join("\n") + "\n");
  fs.utimesSync(file, mtime, mtime);
  return file;
}

describe("listSessions", () => {
  let dir: string;
  beforeEach(() => {
    clearSessionListCache();
    dir = fs.mkdtempSync(path.join(tmpdir(), "pith-list-"));
  });

  it("lists newest first with counts, first message, name and lineage; damaged files never crash", () => {
    write(dir, "a.jsonl", [header("a"), msg("1", "user", "Fix  the\nbug"), msg("2", "assistant", "ok"), JSON.stringify({ type: "session_info", id: "3", parentId: "2", timestamp: "t", name: "Bug fix" })], 1000);
    write(dir, "b.jsonl", [header("b", { parentSession: "/x/a.jsonl" }), '{"type":"message","id":"torn', msg("5", "user", "second"), "not json at all"], 2000);
    write(dir, "c.jsonl", ["this is not a session header", msg("9", "user", "x")], 3000);
    write(dir, "d.jsonl", [], 4000);
    fs.writeFileSync(path.join(dir, "notes.txt"), "ignored");
    const { sessions, nextCursor } = listSessions({ dirs: [dir] });
    expect(nextCursor).toBeUndefined();
    expect(sessions.map((s) => s.id)).toEqual(["b", "a"]);
    expect(sessions[1]).toMatchObject({ id: "a", name: "Bug fix", cwd: "/proj", messageCount: 2, firstMessage: "Fix the bug", createdAt: "2026-01-01T00:00:00.000Z" });
    expect(sessions[1].modifiedAt).toBe(new Date(1000 * 1000).toISOString());
    expect(sessions[0]).toMatchObject({ id: "b", messageCount: 1, firstMessage: "second", parentSession: "/x/a.jsonl" });
  });

  it("pages with a cursor and matches the query case-insensitively on name and first message", () => {
    for (let i = 0; i < 7; i++) write(dir, `s${i}.jsonl`, [header(`s${i}`), msg("1", "user", i % 2 ? `Odd task ${i}` : `even ${i}`)], 1000 + i);
    const first = listSessions({ dirs: [dir], limit: 3 });
    expect(first.sessions.map((s) => s.id)).toEqual(["s6", "s5", "s4"]);
    const second = listSessions({ dirs: [dir], limit: 3, cursor: first.nextCursor });
    expect(second.sessions.map((s) => s.id)).toEqual(["s3", "s2", "s1"]);
    const third = listSessions({ dirs: [dir], limit: 3, cursor: second.nextCursor });
    expect(third).toEqual({ sessions: [expect.objectContaining({ id: "s0" })] });
    expect(listSessions({ dirs: [dir], query: "ODD" }).sessions.map((s) => s.id)).toEqual(["s5", "s3", "s1"]);
    expect(() => listSessions({ dirs: [dir], cursor: "garbage" })).toThrow(/Invalid "cursor"/);
    expect(() => listSessions({ dirs: [dir], limit: 0 })).toThrow(/Invalid "limit"/);
  });

  it("rescans a file that grew and reuses an unchanged one", () => {
    const file = write(dir, "g.jsonl", [header("g"), msg("1", "user", "hello")], 1000);
    expect(listSessions({ dirs: [dir] }).sessions[0].messageCount).toBe(1);
    fs.appendFileSync(file, msg("2", "assistant", "hi") + "\n" + msg("3", "user", "again") + "\n");
    fs.utimesSync(file, 2000, 2000);
    const s = listSessions({ dirs: [dir] }).sessions[0];
    expect(s).toMatchObject({ messageCount: 3, firstMessage: "hello" });
    // an unchanged file is not read again: replace its bytes but keep size and mtime
    const before = fs.readFileSync(file, "utf8");
    fs.writeFileSync(file, before.replace("hello", "HELLO"));
    fs.utimesSync(file, 2000, 2000);
    expect(listSessions({ dirs: [dir] }).sessions[0].firstMessage).toBe("hello");
  });

  it("counts a torn last line only once it is complete", () => {
    const file = path.join(dir, "t.jsonl");
    const whole = msg("2", "assistant", "done");
    fs.writeFileSync(file, `${header("t")}\n${msg("1", "user", "q")}\n${whole.slice(0, 20)}`);
    expect(listSessions({ dirs: [dir] }).sessions[0].messageCount).toBe(1);
    fs.appendFileSync(file, whole.slice(20) + "\n");
    fs.utimesSync(file, 5000, 5000);
    expect(listSessions({ dirs: [dir] }).sessions[0].messageCount).toBe(2);
  });

  it("a file renamed away and back (same mtime) is listed under its name again", async () => {
    write(dir, "a.jsonl", [header("a")], 1000);
    write(dir, "b.jsonl", [header("b")], 2000);
    for (const list of [async () => listSessions({ dirs: [dir] }), () => listSessionsWatched({ dirs: [dir] })]) {
      const paths = async () => (await list()).sessions.map((x) => path.basename(x.path));
      expect(await paths()).toEqual(["b.jsonl", "a.jsonl"]);
      fs.renameSync(path.join(dir, "a.jsonl"), path.join(dir, "c.jsonl"));
      expect(await paths()).toEqual(["b.jsonl", "c.jsonl"]);
      fs.renameSync(path.join(dir, "c.jsonl"), path.join(dir, "a.jsonl"));
      expect(await paths()).toEqual(["b.jsonl", "a.jsonl"]);
    }
  });

  it("projectDirsOf lists the root and its sub-folders; a missing root has none", () => {
    fs.mkdirSync(path.join(dir, "--p1--"));
    expect(projectDirsOf(dir).sort()).toEqual([dir, path.join(dir, "--p1--")].sort());
    expect(projectDirsOf(path.join(dir, "missing"))).toEqual([]);
  });

  describe("watched folders (list_sessions in a long-lived process)", () => {
    afterEach(() => clearSessionListCache());
    const ids = (r: { sessions: { id: string }[] }) => r.sessions.map((x) => x.id);

    it("sees a file appended, created, renamed or removed right before the call, like a fresh listing", async () => {
      const a = write(dir, "a.jsonl", [header("a"), msg("1", "user", "first")], 1000);
      write(dir, "b.jsonl", [header("b"), msg("1", "user", "second")], 2000);
      expect(ids(await listSessionsWatched({ dirs: [dir] }))).toEqual(["b", "a"]);
      // written in this very turn: the watcher's event has not been read yet when the call starts
      fs.appendFileSync(a, JSON.stringify({ type: "session_info", id: "2", parentId: "1", timestamp: "t", name: "Named" }) + "\n" + msg("3", "assistant", "ok") + "\n");
      fs.utimesSync(a, 3000, 3000);
      let r = await listSessionsWatched({ dirs: [dir] });
      expect(r.sessions[0]).toMatchObject({ id: "a", name: "Named", messageCount: 2 });
      write(dir, "c.jsonl", [header("c")], 500);
      fs.renameSync(path.join(dir, "b.jsonl"), path.join(dir, "b2.jsonl"));
      r = await listSessionsWatched({ dirs: [dir] });
      expect(ids(r)).toEqual(["a", "b", "c"]);
      expect(r.sessions[1].path).toBe(path.join(dir, "b2.jsonl"));
      fs.rmSync(a);
      expect(ids(await listSessionsWatched({ dirs: [dir] }))).toEqual(["b", "c"]);
      clearSessionListCache();
      expect(await listSessionsWatched({ dirs: [dir] })).toEqual(listSessions({ dirs: [dir] }));
    });

    it.runIf(process.platform === "linux")("a repeated listing stats only the files the watcher reported", async () => {
      for (let i = 0; i < 20; i++) write(dir, `s${i}.jsonl`, [header(`s${i}`), msg("1", "user", `task ${i}`)], 1000 + i);
      const first = await listSessionsWatched({ dirs: [dir] });
      const stat = vi.spyOn(fs, "statSync");
      try {
        expect(await listSessionsWatched({ dirs: [dir] })).toEqual(first);
        expect(stat).not.toHaveBeenCalled();
        fs.appendFileSync(path.join(dir, "s3.jsonl"), msg("2", "assistant", "done") + "\n");
        fs.utimesSync(path.join(dir, "s3.jsonl"), 5000, 5000);
        const after = await listSessionsWatched({ dirs: [dir] });
        expect(after.sessions[0]).toMatchObject({ id: "s3", messageCount: 2 });
        expect(stat.mock.calls.map((c) => path.basename(String(c[0])))).toEqual(["s3.jsonl"]);
      } finally {
        stat.mockRestore();
      }
    });

    it("keeps statting a folder whose session files are symlinks (their writes raise no event there)", async () => {
      const elsewhere = fs.mkdtempSync(path.join(tmpdir(), "pith-list-target-"));
      const target = write(elsewhere, "t.jsonl", [header("t"), msg("1", "user", "linked")], 1000);
      fs.symlinkSync(target, path.join(dir, "t.jsonl"));
      expect((await listSessionsWatched({ dirs: [dir] })).sessions[0].messageCount).toBe(1);
      fs.appendFileSync(target, msg("2", "assistant", "ok") + "\n");
      fs.utimesSync(target, 2000, 2000);
      expect((await listSessionsWatched({ dirs: [dir] })).sessions[0].messageCount).toBe(2);
    });

    it("lists a folder that appears after a first empty listing, and one that is removed", async () => {
      const later = path.join(dir, "later");
      expect(await listSessionsWatched({ dirs: [later] })).toEqual({ sessions: [] });
      fs.mkdirSync(later);
      write(later, "x.jsonl", [header("x")], 1000);
      expect(ids(await listSessionsWatched({ dirs: [later] }))).toEqual(["x"]);
      fs.rmSync(later, { recursive: true });
      expect(await listSessionsWatched({ dirs: [later] })).toEqual({ sessions: [] });
    });

    it("pages and queries exactly as the stat-based listing does, across folders", async () => {
      const other = fs.mkdtempSync(path.join(tmpdir(), "pith-list-"));
      for (let i = 0; i < 9; i++) write(i % 2 ? dir : other, `s${i}.jsonl`, [header(`s${i}`), msg("1", "user", i % 3 ? `task ${i}` : `Chore ${i}`)], 1000 + (i % 4));
      const pages = async (list: (o: { dirs: string[]; limit: number; cursor?: string; query?: string }) => unknown, query?: string) => {
        const out: unknown[] = [];
        let cursor: string | undefined;
        do {
          const page = (await list({ dirs: [dir, other, dir], limit: 2, cursor, query })) as { nextCursor?: string };
          out.push(page);
          cursor = page.nextCursor;
        } while (cursor);
        return out;
      };
      for (const query of [undefined, "chore"]) {
        const watched = await pages(listSessionsWatched, query);
        expect(watched).toEqual(await pages(listSessions, query));
        expect(await pages(listSessionsWatched, query)).toEqual(watched);
      }
    });
  });
});
