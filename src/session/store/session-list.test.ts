// list_sessions over generated folders: order, paging, query, damaged files, the cache.
import fs from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { clearSessionListCache, listSessions, projectDirsOf } from "./session-list.js";

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

  it("projectDirsOf lists the root and its sub-folders; a missing root has none", () => {
    fs.mkdirSync(path.join(dir, "--p1--"));
    expect(projectDirsOf(dir).sort()).toEqual([dir, path.join(dir, "--p1--")].sort());
    expect(projectDirsOf(path.join(dir, "missing"))).toEqual([]);
  });
});
