// Sessions for hosts, part 1: list_sessions over generated folders (paging, query, all,
// damaged files), get_entries with and without `since`, get_tree after two branches,
// open_session both ways, delete_session and its refusals. The built CLI against the fake LLM.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cwdSlug } from "../../src/store/layout.js";
import { trackPiths, useFakeLlm, Pith, fakeModelsJson, tempDir, type Frame, type StartOptions } from "./harness.js";
import { STORES, useStores } from "./stores.js";

const llm = useFakeLlm();
// the cases that exercise storage run against the session files and the session database
const stores = useStores();
const open = trackPiths();
const OPENAI = ["--provider", "fake-openai", "--model", "fake-gpt"];

async function start(opts: StartOptions = {}): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), ...opts, args: [...OPENAI, ...(opts.args ?? [])] });
  open.push(p);
  return p;
}
async function ok(p: Pith, cmd: Frame): Promise<any> {
  const res = await p.request(cmd);
  expect(res.success, `${cmd.type}: ${res.error}`).toBe(true);
  return res.data;
}
async function fail(p: Pith, cmd: Frame): Promise<Frame> {
  const res = await p.request(cmd);
  expect(res.success, `${cmd.type} should fail`).toBe(false);
  return res;
}

let seq = 0;
const entry = (type: string, parentId: string | null, fields: Frame) => ({ type, id: `e${++seq}`, parentId, timestamp: new Date(1_700_000_000_000 + seq * 1000).toISOString(), ...fields });
const user = (parentId: string | null, text: string) => entry("message", parentId, { message: { role: "user", content: [{ type: "text", text }], timestamp: 1 } });
const reply = (parentId: string | null, text: string) =>
  entry("message", parentId, { message: { role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "fake-openai", model: "fake-gpt", usage: { input: 1, output: 1, cacheRead: 0, cacheWrite: 0, totalTokens: 2, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 2 } });

function writeSession(dir: string, id: string, entries: Frame[], mtimeSec: number, extra: string[] = []): string {
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `2026-01-01T00-00-0${seq % 10}-000Z_${id}.jsonl`);
  const header = { type: "session", version: 3, id, timestamp: "2026-01-01T00:00:00.000Z", cwd: "/somewhere" };
  fs.writeFileSync(file, [header, ...entries].map((e) => JSON.stringify(e)).concat(extra).join("\n") + "\n");
  fs.utimesSync(file, mtimeSec, mtimeSec);
  return file;
}

describe("list_sessions", () => {
  it("lists the process's folder, another project's, and all; pages; queries; survives damaged files", async () => {
    const pithHome = tempDir("pith-home-");
    const cwd = tempDir("pith-cwd-");
    const other = tempDir("pith-other-");
    const mine = path.join(pithHome, "sessions", cwdSlug(fs.realpathSync(cwd)));
    const theirs = path.join(pithHome, "sessions", cwdSlug(other));
    for (let i = 0; i < 5; i++) {
      const u = user(null, i === 3 ? "Refactor the PARSER" : `task ${i}`);
      writeSession(mine, `mine${i}`, [u, reply(u.id, "ok")], 1_000 + i);
    }
    writeSession(mine, "damaged", [user(null, "half")], 2_000, ['{"type":"message","id":"x', "}{ garbage", '{"type":"session_info","name":"Damaged one"}']);
    fs.writeFileSync(path.join(mine, "zz-not-a-session.jsonl"), "hello\n");
    fs.writeFileSync(path.join(mine, "empty.jsonl"), "");
    writeSession(theirs, "theirs0", [user(null, "elsewhere")], 500);

    const p = await start({ pithHome, cwd });
    const all = await ok(p, { type: "list_sessions" });
    expect(all.sessions.map((s: Frame) => s.id)).toEqual(["damaged", "mine4", "mine3", "mine2", "mine1", "mine0"]);
    expect(all.sessions[0]).toMatchObject({ name: "Damaged one", messageCount: 1, firstMessage: "half", cwd: "/somewhere" });
    expect(all.sessions[2]).toMatchObject({ messageCount: 2, firstMessage: "Refactor the PARSER" });
    expect(all.nextCursor).toBeUndefined();

    const page1 = await ok(p, { type: "list_sessions", limit: 4 });
    const page2 = await ok(p, { type: "list_sessions", limit: 4, cursor: page1.nextCursor });
    expect([...page1.sessions, ...page2.sessions].map((s: Frame) => s.id)).toEqual(all.sessions.map((s: Frame) => s.id));
    expect((await ok(p, { type: "list_sessions", query: "parser" })).sessions.map((s: Frame) => s.id)).toEqual(["mine3"]);
    expect((await ok(p, { type: "list_sessions", cwd: other })).sessions.map((s: Frame) => s.id)).toEqual(["theirs0"]);
    const every = await ok(p, { type: "list_sessions", all: true });
    expect(every.sessions.map((s: Frame) => s.id)).toContain("theirs0");
    expect(every.sessions).toHaveLength(7);
    expect((await fail(p, { type: "list_sessions", cursor: "nope" })).error).toMatch(/Invalid "cursor"/);
    expect((await fail(p, { type: "list_sessions", limit: 0 })).error).toMatch(/limit/);
  });
});

describe.each(STORES)("get_entries and get_tree (%s)", (kind) => {
  it("reads every entry, the entries after a cursor, and fails an unknown cursor with unknown_since", async (ctx) => {
    if (stores.skip(kind)) return ctx.skip(stores.skip(kind));
    const p = await start({ args: stores.args(kind) });
    for (const t of ["first", "second"]) {
      llm.enqueue({ text: `re: ${t}` });
      await p.promptAndWait(t);
    }
    const { entries, leafId } = await ok(p, { type: "get_entries" });
    const messages = entries.filter((e: Frame) => e.type === "message");
    expect(messages.map((e: Frame) => e.message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(leafId).toBe(entries.at(-1).id);
    const after = await ok(p, { type: "get_entries", since: messages[1].id });
    expect(after.entries).toEqual(entries.slice(entries.indexOf(entries.find((e: Frame) => e.id === messages[1].id)) + 1));
    expect(await fail(p, { type: "get_entries", since: "nope" })).toMatchObject({ command: "get_entries", error: "Unknown entries cursor: nope", code: "unknown_since" });
  });

  it("nests two branches under their common parent, with labels, oldest child first", async (ctx) => {
    if (stores.skip(kind)) return ctx.skip(stores.skip(kind));
    const root = user(null, "root question");
    const a1 = reply(root.id, "answer");
    const b1 = user(a1.id, "branch one");
    const b2 = user(a1.id, "branch two");
    const b2r = reply(b2.id, "two done");
    const label = entry("label", b2r.id, { targetId: b1.id, label: "keep" });
    const dir = tempDir("pith-tree-");
    const file = await stores.seed(kind, writeSession(dir, "tree", [root, a1, b1, b2, b2r, label], 100));
    const p = await start({ args: [...stores.args(kind), "--session", file] });
    const { tree, leafId } = await ok(p, { type: "get_tree" });
    expect(leafId).toBe(label.id);
    expect(tree).toHaveLength(1);
    expect(tree[0].entry.id).toBe(root.id);
    const fork = tree[0].children[0];
    expect(fork.entry.id).toBe(a1.id);
    expect(fork.children.map((c: Frame) => c.entry.id)).toEqual([b1.id, b2.id]);
    expect(fork.children[0]).toMatchObject({ label: "keep", children: [] });
    expect(fork.children[1].children[0].children[0].entry).toEqual(label);
  });
});

describe("open_session and delete_session", () => {
  it("resumes the newest session of a folder, or starts a new one in an empty folder", async () => {
    const dir = tempDir("pith-open-");
    const u = user(null, "old");
    writeSession(dir, "older", [u, reply(u.id, "x")], 100);
    const newest = writeSession(dir, "newest", [user(null, "new")], 200);
    writeSession(dir, "empty", [], 300); // no messages: not resumed
    const p = await start();
    expect(await ok(p, { type: "open_session", sessionDir: dir })).toEqual({ cancelled: false, resumed: true, sessionId: "newest", sessionFile: newest });
    expect((await ok(p, { type: "get_state" })).sessionFile).toBe(newest);

    const empty = tempDir("pith-open-empty-");
    const fresh = await ok(p, { type: "open_session", sessionDir: empty });
    expect(fresh).toMatchObject({ cancelled: false, resumed: false });
    expect(path.dirname(fresh.sessionFile)).toBe(empty);
    llm.enqueue({ text: "stored here" });
    await p.promptAndWait("hello");
    expect(fs.existsSync(fresh.sessionFile)).toBe(true);
    // opening the same folder again keeps the open session
    expect(await ok(p, { type: "open_session", sessionDir: empty })).toMatchObject({ resumed: true, sessionFile: fresh.sessionFile });
  });

  it("deletes a closed session file and refuses the open one, one open elsewhere and non-session files", async () => {
    const dir = tempDir("pith-del-");
    const u = user(null, "q");
    const closed = writeSession(dir, "closed", [u, reply(u.id, "a")], 100);
    const busy = writeSession(dir, "busy", [user(null, "held")], 100);
    const notSession = path.join(dir, "notes.jsonl");
    fs.writeFileSync(notSession, '{"hello":1}\n');
    const p = await start();
    const other = await start({ args: ["--session", busy] });
    const mine = (await ok(p, { type: "open_session", sessionDir: tempDir("pith-del-own-") })).sessionFile;
    llm.enqueue({ text: "on disk" });
    await p.promptAndWait("write the file");

    expect((await fail(p, { type: "delete_session", sessionPath: mine })).error).toMatch(/Cannot delete the open session/);
    expect((await fail(p, { type: "delete_session", sessionPath: busy })).error).toMatch(new RegExp(`another pith process \\(pid ${other.child.pid}\\)`));
    expect((await fail(p, { type: "delete_session", sessionPath: notSession })).error).toMatch(/Not a session file/);
    expect((await fail(p, { type: "delete_session", sessionPath: dir })).error).toMatch(/Not a session file/);
    expect((await fail(p, { type: "delete_session", sessionPath: path.join(dir, "missing.jsonl") })).error).toMatch(/not found/);
    expect(await ok(p, { type: "delete_session", sessionPath: closed })).toEqual({ path: closed });
    expect(fs.existsSync(closed)).toBe(false);
    expect(fs.existsSync(notSession) && fs.existsSync(busy) && fs.existsSync(mine)).toBe(true);
    await other.close();
    expect(await ok(p, { type: "delete_session", sessionPath: busy })).toEqual({ path: busy });
  });
});
