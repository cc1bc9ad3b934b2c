// Sessions in PostgreSQL through the built CLI (`--session-store postgres://…`): two processes with
// different PITH_HOMEs and working folders share sessions through the database (B lists, opens and
// continues what A wrote; B is refused while A holds the session), `pith sessions import|export`
// move sessions between JSONL folders and the database byte for byte, and the database's URL and
// password never reach a frame, stderr or a tool's environment.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { RpcClient } from "../../src/client/index.js";
import { initCluster } from "../support/pg-cluster.js";
import { usePostgres } from "../support/pg-test.js";
import { CLI, ok, trackPiths, useFakeLlm, Pith, fakeModelsJson, tempDir, type Frame, type StartOptions } from "./harness.js";

const pgdb = usePostgres();
const llm = useFakeLlm();
const open = trackPiths();
const OPENAI = ["--provider", "fake-openai", "--model", "fake-gpt"];

async function start(opts: StartOptions = {}): Promise<Pith> {
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), ...opts, args: [...OPENAI, ...(opts.args ?? [])] });
  open.push(p);
  return p;
}
const onStore = (url = pgdb.url, opts: StartOptions = {}) => start({ ...opts, args: ["--session-store", url, ...(opts.args ?? [])] });

async function ask(p: Pith, text: string): Promise<void> {
  llm.enqueue({ text: `re: ${text}` });
  await p.promptAndWait(text);
}
async function fail(p: Pith, cmd: Frame): Promise<string> {
  const res = await p.request(cmd);
  expect(res.success, `${cmd.type} should fail`).toBe(false);
  return res.error as string;
}
const textOf = (m: Frame): string => (typeof m.content === "string" ? m.content : (m.content as Frame[]).filter((b) => b.type === "text").map((b) => b.text).join(""));
const transcript = async (p: Pith): Promise<string[]> => ((await ok(p, { type: "get_messages" })).messages as Frame[]).map((m) => `${m.role}:${textOf(m)}`);
const lastRequest = (): string[] => (llm.requests[llm.requests.length - 1].body.messages as Frame[]).filter((m) => m.role !== "system").map((m) => `${m.role}:${textOf(m)}`);

function pith(args: string[], o: { cwd: string; home: string; env?: Record<string, string> }) {
  const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: o.home, PITH_HOME: o.home, ...o.env };
  return spawnSync(process.execPath, [CLI, ...args], { cwd: o.cwd, env, encoding: "utf8", timeout: 60_000 });
}

describe("sessions in PostgreSQL across processes", () => {
  it("A prompts and exits; B (another PITH_HOME and cwd) lists the session, opens it and continues", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const cwdA = tempDir("pith-pg-a-");
    const a = await onStore(pgdb.url, { cwd: cwdA });
    await ask(a, "hello from A");
    const ref = (await ok(a, { type: "get_state" })).sessionFile as string;
    expect(ref).toMatch(/^pg:[0-9a-z-]+$/i);
    expect(await a.close()).toBe(0);
    expect(fs.readdirSync(a.pithHome)).not.toContain("sessions");

    // B on another machine's worth: own home, own folder, the store from the environment
    const b = await start({ env: { PITH_SESSION_STORE: pgdb.url } });
    const listed = await ok(b, { type: "list_sessions", all: true });
    const row = (listed.sessions as Frame[]).find((s) => s.path === ref);
    expect(row).toMatchObject({ cwd: fs.realpathSync(cwdA), firstMessage: "hello from A", messageCount: 2 });
    expect((await ok(b, { type: "list_sessions" })).sessions).toEqual([]);
    expect((await ok(b, { type: "list_sessions", cwd: fs.realpathSync(cwdA) })).sessions.map((s: Frame) => s.path)).toEqual([ref]);
    await ok(b, { type: "switch_session", sessionPath: row?.path });
    expect((await ok(b, { type: "get_state" })).sessionFile).toBe(ref);
    expect(await transcript(b)).toEqual(["user:hello from A", "assistant:re: hello from A"]);
    await ask(b, "more from B");
    expect(lastRequest()).toEqual(["user:hello from A", "assistant:re: hello from A", "user:more from B"]);
    const entries = (await ok(b, { type: "get_entries" })).entries as Frame[];
    await b.close();
    // committed as the host saw it: every entry once, in order
    const rows = await pgdb.query<{ entry_id: string }>("SELECT entry_id FROM pith_entries WHERE session_id = $1 ORDER BY seq", [ref.slice(3)]);
    expect(rows.map((r) => r.entry_id)).toEqual(entries.map((e) => e.id));
  });

  it("while A holds a session, B cannot write it (naming A's host and pid); once A exits B can", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const a = await onStore();
    await ask(a, "held by A");
    const ref = (await ok(a, { type: "get_state" })).sessionFile as string;
    const b = await onStore();
    const busy = new RegExp(`open (for writing )?in another pith process \\(host [^,]+, pid ${a.child.pid}[,)]`);
    expect(await fail(b, { type: "switch_session", sessionPath: ref })).toMatch(busy);
    expect(await fail(b, { type: "delete_session", sessionPath: ref })).toMatch(busy);
    expect((await ok(b, { type: "get_state" })).sessionFile).not.toBe(ref);
    // at start-up too: the process says why and exits
    const c = pith(["--mode", "rpc", ...OPENAI, "--session-store", pgdb.url, "--session", ref], { cwd: b.cwd, home: b.pithHome });
    expect(c.status).not.toBe(0);
    expect(c.stderr).toMatch(busy);
    // A killed (no clean close): its connection ends, and the lock with it
    a.child.kill("SIGKILL");
    await a.exited;
    await pgdb.connectionGone(a.child.pid as number);
    await ok(b, { type: "switch_session", sessionPath: ref });
    await ask(b, "now B's");
    expect(lastRequest()).toEqual(["user:held by A", "assistant:re: held by A", "user:now B's"]);
  });

  it("pith sessions import and export move sessions between JSONL folders and the database byte for byte", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const url = await pgdb.freshDatabase();
    const j = await start();
    await ask(j, "written as JSONL");
    const file = (await ok(j, { type: "get_state" })).sessionFile as string;
    await j.close();
    const original = fs.readFileSync(file, "utf8");
    const id = JSON.parse(original.split("\n")[0]).id as string;
    const entryCount = original.trim().split("\n").length - 1;

    const run = (...args: string[]) => pith(["sessions", ...args, "--session-store", url], { cwd: j.cwd, home: j.pithHome });
    const imported = run("import", path.join(j.pithHome, "sessions"));
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toContain(`imported ${file} as pg:${id} (${entryCount} entries)`);
    expect(imported.stdout).toContain("1 imported, 0 skipped");
    expect(imported.status).toBe(0);
    expect(run("import", file).stdout).toContain(`skipped ${file}: session ${id} is already in the database`);

    const p = await onStore(url, { cwd: j.cwd, args: ["--continue"] });
    expect((await ok(p, { type: "get_state" })).sessionFile).toBe(`pg:${id}`);
    expect(await transcript(p)).toEqual(["user:written as JSONL", "assistant:re: written as JSONL"]);
    await p.close();

    const out = tempDir("pith-pg-export-");
    const exported = run("export", out);
    expect(exported.status).toBe(0);
    const back = exported.stdout.match(/exported pg:\S+ to (\S+)/)?.[1] as string;
    expect(path.relative(out, back)).toBe(path.relative(path.join(j.pithHome, "sessions"), file));
    expect(fs.readFileSync(back, "utf8")).toBe(original);
    // without a database the command says what it needs
    const none = pith(["sessions", "export", out], { cwd: j.cwd, home: j.pithHome });
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/needs a session database: pass --session-store/);
  });

  it("the URL's password reaches no frame, no stderr line and no tool; a wrong one fails clearly", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const secret = pgdb.cluster.password;
    const url = pgdb.url.replace("postgres://pith@", `postgres://pith:${secret}@`).replace(/&passfile=[^&]*/, "");
    const p = await onStore(url, { args: ["--tools", "bash"] });
    llm.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "env; cat /proc/$PPID/cmdline | tr '\\0' ' '" } }] });
    llm.enqueue({ text: "done" });
    await p.promptAndWait("show env");
    const toolOut = JSON.stringify(llm.requests[llm.requests.length - 1].body);
    expect(toolOut).toContain("PITH_HOME");
    expect(toolOut).not.toContain(secret);
    expect(await fail(p, { type: "switch_session", sessionPath: "pg:nothere" })).toMatch(/not found/i);
    await p.close();
    expect(JSON.stringify(p.frames)).not.toContain(secret);
    expect(p.stderr).not.toContain(secret);

    const wrong = "wrong-password-93c1";
    const bad = pith(["--mode", "rpc", ...OPENAI, "--session-store", url.replace(secret, wrong)], { cwd: p.cwd, home: p.pithHome });
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toMatch(/Cannot open the session database: .*password/i);
    expect(bad.stderr + bad.stdout).not.toContain(wrong);
  });

  it("the database restarted mid-run: pith reconnects, the run completes, every acknowledged entry is stored once", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    // a cluster of its own: restarting the run's shared one would cut every other file's connections
    const dir = tempDir("pith-pg-restart-");
    fs.chmodSync(dir, 0o755);
    const cluster = initCluster(dir, { durable: false });
    try {
      const url = await cluster.createDatabase("restart");
      const p = await onStore(url);
      await ask(p, "before");
      const ref = (await ok(p, { type: "get_state" })).sessionFile as string;
      llm.enqueue({ text: ["slow ", "reply ", "across ", "the ", "restart"], chunkDelayMs: 150 });
      const from = p.frames.length;
      await ok(p, { type: "prompt", message: "during" });
      await p.waitFor((f) => f.type === "message_update", 15_000, from);
      cluster.restart();
      const end = await p.waitFor((f) => f.type === "agent_end", 60_000, from);
      expect(JSON.stringify(end.messages)).toContain("slow reply across the restart");
      await p.waitIdle(30_000, from);
      await ask(p, "after");
      const acked = p.frames.filter((f) => f.type === "message_end").map((f) => `${f.message.role}:${textOf(f.message)}`);
      expect(acked).toEqual(["user:before", "assistant:re: before", "user:during", "assistant:slow reply across the restart", "user:after", "assistant:re: after"]);
      expect(p.stderr).not.toContain(cluster.password);
      await p.close();
      const c = new pg.Client({ host: cluster.socketDir, user: "pith", password: cluster.password, database: "restart" });
      await c.connect();
      const rows = (await c.query<{ line: string }>("SELECT line FROM pith_entries WHERE session_id = $1 ORDER BY seq", [ref.slice(3)]).finally(() => c.end())).rows;
      const stored = rows.map((r) => JSON.parse(r.line) as Frame).filter((e) => e.type === "message").map((e) => `${e.message.role}:${textOf(e.message)}`);
      expect(stored).toEqual(acked);
    } finally {
      cluster.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("the TypeScript client runs pith on the database with args: listSessions' pg: paths work in switchSession and deleteSession", async (ctx) => {
    if (pgdb.skip) return ctx.skip(pgdb.skip);
    const home = tempDir("pith-client-home-");
    const url = await pgdb.freshDatabase();
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home };
    fs.writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
    const client = new RpcClient({ cliPath: CLI, cwd: tempDir("pith-client-cwd-"), env, args: [...OPENAI, "--session-store", url] });
    await client.start();
    try {
      llm.enqueue({ text: "kept in the database" });
      await client.promptAndWait("remember this");
      const first = (await client.getState()).sessionFile as string;
      await client.newSession();
      const listed = await client.listSessions({ query: "REMEMBER" });
      expect(listed.sessions.map((s) => [s.path, s.messageCount])).toEqual([[first, 2]]);
      await client.switchSession(listed.sessions[0].path);
      expect((await client.getState()).sessionFile).toBe(first);
      await client.newSession();
      expect(await client.deleteSession(first)).toEqual({ path: first });
      expect((await client.listSessions({ query: "REMEMBER" })).sessions).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
