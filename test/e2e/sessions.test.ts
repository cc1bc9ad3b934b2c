// Sessions over RPC end to end: new/switch/branch/fork/clone, the history commands,
// stats, export, get_state's session fields, a running turn during a session change, and the
// CLI session flags. Every test runs the built CLI against the fake LLM server and asserts on
// the files on disk and on what the fake received, not only on the frames.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeReply } from "../support/fake-llm-server.js";
import { CLI, trackPiths, useFakeLlm, Pith, fakeModelsJson, tempDir, type Frame, type StartOptions } from "./harness.js";
import { STORES, useStores } from "./stores.js";

const llm = useFakeLlm();
const open = trackPiths();
const stores = useStores();

const OPENAI = ["--provider", "fake-openai", "--model", "fake-gpt"];
const ANTHROPIC = ["--provider", "fake-anthropic", "--model", "fake-claude"];

async function start(opts: StartOptions & { provider?: string[] } = {}): Promise<Pith> {
  const { provider = OPENAI, ...rest } = opts;
  const p = await Pith.start({ modelsJson: fakeModelsJson(llm.url), ...rest, args: [...provider, ...(rest.args ?? [])] });
  open.push(p);
  return p;
}

/** Prompts with one scripted reply (default: a text reply echoing the prompt). */
async function ask(p: Pith, text: string, reply: FakeReply = { text: `re: ${text}` }): Promise<Frame[]> {
  llm.enqueue(reply);
  return p.promptAndWait(text);
}

async function ok(p: Pith, cmd: Frame): Promise<any> {
  const res = await p.request(cmd);
  expect(res.success, `${cmd.type}: ${res.error}`).toBe(true);
  return res.data;
}

async function fail(p: Pith, cmd: Frame): Promise<string> {
  const res = await p.request(cmd);
  expect(res.success, `${cmd.type} should fail`).toBe(false);
  return res.error as string;
}

const state = (p: Pith): Promise<any> => ok(p, { type: "get_state" });

/** The messages of the in-memory context as `role:text` strings. */
async function transcript(p: Pith): Promise<string[]> {
  const { messages } = await ok(p, { type: "get_messages" });
  return messages.map((m: Frame) => `${m.role}:${textOf(m.content)}`);
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.filter((b) => b.type === "text").map((b) => b.text).join("");
}

/** The conversation the fake received in its last request, as `role:text` (system dropped). */
function lastRequestTranscript(): string[] {
  const body = llm.requests[llm.requests.length - 1].body;
  return (body.messages as Frame[]).filter((m) => m.role !== "system").map((m) => `${m.role}:${textOf(m.content)}`);
}

function readLines(file: string): Frame[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l));
}

const fileMessages = (file: string): string[] =>
  readLines(file)
    .filter((e) => e.type === "message")
    .map((e) => `${e.message.role}:${textOf(e.message.content)}`);

function jsonlFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".jsonl"));
}

/** Runs the CLI in RPC mode with empty stdin and waits for it to exit. */
function runCliOnce(home: string, cwd: string, args: string[]) {
  fs.writeFileSync(path.join(home, "models.json"), JSON.stringify(fakeModelsJson(llm.url)));
  return spawnSync(process.execPath, [CLI, "--mode", "rpc", ...OPENAI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home },
    input: "",
    encoding: "utf8",
    timeout: 15_000,
  });
}

describe("get_state and the session file", () => {
  it("reports the session fields and writes the file lazily, at the first assistant message", async () => {
    const p = await start();
    const s0 = await state(p);
    expect(s0.sessionId).toMatch(/^[0-9a-f]{16}$/);
    expect(path.isAbsolute(s0.sessionFile)).toBe(true);
    expect(s0.sessionFile.startsWith(path.join(p.pithHome, "sessions") + path.sep)).toBe(true);
    expect(path.basename(s0.sessionFile)).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d-]+Z_${s0.sessionId}\\.jsonl$`));
    expect(s0).toMatchObject({ messageCount: 0, pendingMessageCount: 0, queuedMessageCount: 0 });
    expect(s0).not.toHaveProperty("sessionName");
    expect(fs.existsSync(s0.sessionFile)).toBe(false);
    expect(await ok(p, { type: "get_last_assistant_text" })).toEqual({});

    await ask(p, "hello");
    const s1 = await state(p);
    expect(s1).toMatchObject({ sessionFile: s0.sessionFile, sessionId: s0.sessionId, messageCount: 2 });
    const lines = readLines(s0.sessionFile);
    expect(lines[0]).toMatchObject({ type: "session", version: 3, id: s0.sessionId, cwd: p.cwd });
    // a brand-new session records the model and thinking level it started with
    expect(lines[1]).toMatchObject({ type: "model_change", provider: "fake-openai", modelId: "fake-gpt", parentId: null });
    expect(lines[2]).toMatchObject({ type: "thinking_level_change", thinkingLevel: s0.thinkingLevel, parentId: lines[1].id });
    expect(fileMessages(s0.sessionFile)).toEqual(["user:hello", "assistant:re: hello"]);
  });

  it("still writes the file when the session folder was removed before the first reply", async () => {
    const p = await start();
    const s = await state(p);
    fs.rmSync(path.dirname(s.sessionFile), { recursive: true, force: true });
    await ask(p, "recreate");
    expect(fileMessages(s.sessionFile)).toEqual(["user:recreate", "assistant:re: recreate"]);
    expect(p.stderr).not.toMatch(/failed to persist/);
  });

  it("counts queued messages as pendingMessageCount and queuedMessageCount while a turn runs", async () => {
    const p = await start();
    llm.enqueue({ hang: true });
    const from = p.frames.length;
    const requests = llm.requests.length;
    expect((await p.request({ type: "prompt", message: "long" })).success).toBe(true);
    await p.waitFor((f) => f.type === "message_start" && f.message.role === "assistant", 10_000, from);
    // the hanging reply must be taken by this request, not left for the next test's prompt
    await llm.waitForRequests(requests + 1, 10_000);
    await ok(p, { type: "follow_up", message: "later" });
    await ok(p, { type: "steer", message: "now" });
    const s = await state(p);
    expect(s).toMatchObject({ isStreaming: true, pendingMessageCount: 2, queuedMessageCount: 2 });
    // new_session clears both queues; the follow-up is never delivered to the model
    const before = llm.requests.length;
    await ok(p, { type: "new_session" });
    const after = await state(p);
    expect(after).toMatchObject({ isStreaming: false, pendingMessageCount: 0, queuedMessageCount: 0, messageCount: 0 });
    expect(llm.requests.length).toBe(before);
  });
});

describe("new_session", () => {
  it("starts a fresh session whose header records parentSession; the old file is untouched", async () => {
    const p = await start();
    await ask(p, "first session");
    const first = await state(p);
    const oldLines = fs.readFileSync(first.sessionFile, "utf8");

    expect(await ok(p, { type: "new_session", parentSession: first.sessionFile })).toEqual({ cancelled: false });
    const second = await state(p);
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.sessionFile).not.toBe(first.sessionFile);
    expect(path.dirname(second.sessionFile)).toBe(path.dirname(first.sessionFile));
    expect(second.messageCount).toBe(0);
    expect(await transcript(p)).toEqual([]);

    await ask(p, "second session");
    // the model saw only the new session's conversation
    expect(lastRequestTranscript()).toEqual(["user:second session"]);
    const header = readLines(second.sessionFile)[0];
    expect(header).toMatchObject({ type: "session", id: second.sessionId, parentSession: first.sessionFile });
    expect(fileMessages(second.sessionFile)).toEqual(["user:second session", "assistant:re: second session"]);
    expect(fs.readFileSync(first.sessionFile, "utf8")).toBe(oldLines);
  });

  it("omits parentSession from the header when none is given", async () => {
    const p = await start();
    await ok(p, { type: "new_session" });
    await ask(p, "x");
    const header = readLines((await state(p)).sessionFile)[0];
    expect(header.type).toBe("session");
    expect(header).not.toHaveProperty("parentSession");
  });
});

describe("switch_session", () => {
  it("switches back and forth, preserving each session's messages and context", async () => {
    const p = await start();
    await ask(p, "a1");
    await ask(p, "a2");
    const a = await state(p);
    await ok(p, { type: "new_session" });
    await ask(p, "b1");
    const b = await state(p);

    expect(await ok(p, { type: "switch_session", sessionPath: a.sessionFile })).toEqual({ cancelled: false });
    expect(await state(p)).toMatchObject({ sessionFile: a.sessionFile, sessionId: a.sessionId, messageCount: 4 });
    expect(await transcript(p)).toEqual(["user:a1", "assistant:re: a1", "user:a2", "assistant:re: a2"]);
    await ask(p, "a3");
    expect(lastRequestTranscript()).toEqual(["user:a1", "assistant:re: a1", "user:a2", "assistant:re: a2", "user:a3"]);
    expect(fileMessages(a.sessionFile)).toHaveLength(6);

    await ok(p, { type: "switch_session", sessionPath: b.sessionFile });
    expect(await state(p)).toMatchObject({ sessionFile: b.sessionFile, sessionId: b.sessionId, messageCount: 2 });
    expect(await transcript(p)).toEqual(["user:b1", "assistant:re: b1"]);
    await ask(p, "b2");
    expect(lastRequestTranscript()).toEqual(["user:b1", "assistant:re: b1", "user:b2"]);

    // and back again: the lock of A was released on the way out
    await ok(p, { type: "switch_session", sessionPath: a.sessionFile });
    expect((await transcript(p)).slice(-2)).toEqual(["user:a3", "assistant:re: a3"]);
  });

  it("accepts a path relative to the working directory", async () => {
    const p = await start();
    await ask(p, "rel");
    const a = await state(p);
    await ok(p, { type: "new_session" });
    await ok(p, { type: "switch_session", sessionPath: path.relative(p.cwd, a.sessionFile) });
    expect((await state(p)).sessionId).toBe(a.sessionId);
  });

  it("fails clearly for a missing file and for a non-session file, leaving the current session untouched", async () => {
    const p = await start();
    await ask(p, "keep me");
    const before = await state(p);
    const transcriptBefore = await transcript(p);

    const missing = path.join(p.cwd, "no-such-session.jsonl");
    expect(await fail(p, { type: "switch_session", sessionPath: missing })).toMatch(/not found/i);
    expect(fs.existsSync(missing)).toBe(false);

    const notSession = path.join(p.cwd, "notes.jsonl");
    fs.writeFileSync(notSession, '{"hello":"world"}\nplain text\n');
    const err = await fail(p, { type: "switch_session", sessionPath: notSession });
    expect(err).toMatch(/not a session file/i);
    expect(err).toContain(notSession);
    expect(fs.readFileSync(notSession, "utf8")).toBe('{"hello":"world"}\nplain text\n');

    expect(await fail(p, { type: "switch_session", sessionPath: p.cwd })).toMatch(/not a session file/i);
    expect(await fail(p, { type: "switch_session", sessionPath: "" })).toMatch(/sessionPath/);

    const after = await state(p);
    expect(after).toMatchObject({ sessionFile: before.sessionFile, sessionId: before.sessionId, messageCount: before.messageCount });
    expect(await transcript(p)).toEqual(transcriptBefore);
    // the current session still works and still writes to its own file
    await ask(p, "still here");
    expect(fileMessages(before.sessionFile)).toEqual(["user:keep me", "assistant:re: keep me", "user:still here", "assistant:re: still here"]);
  });
});

describe("switch_session: locks and restored state", () => {
  it("refuses a file another live pith is writing, leaving the current session untouched", async () => {
    const owner = await start();
    await ask(owner, "owned");
    const owned = (await state(owner)).sessionFile;
    const p = await start({ pithHome: owner.pithHome, cwd: owner.cwd });
    await ask(p, "mine");
    const mine = await state(p);
    expect(await fail(p, { type: "switch_session", sessionPath: owned })).toMatch(/locked by another pith process/);
    expect(await state(p)).toMatchObject({ sessionFile: mine.sessionFile, messageCount: 2 });
    // once the owner exits, the file can be opened
    expect(await owner.close()).toBe(0);
    await ok(p, { type: "switch_session", sessionPath: owned });
    expect(await transcript(p)).toEqual(["user:owned", "assistant:re: owned"]);
  });

  it("restores the model and thinking level recorded in the session it switches to", async () => {
    const p = await start({ provider: ANTHROPIC });
    await ok(p, { type: "set_thinking_level", level: "high" });
    await ask(p, "on claude");
    const claudeFile = (await state(p)).sessionFile;
    expect(await p.close()).toBe(0);

    const q = await start({ pithHome: p.pithHome, cwd: p.cwd });
    await ok(q, { type: "set_thinking_level", level: "low" });
    await ask(q, "on gpt");
    expect((await state(q)).model).toMatchObject({ provider: "fake-openai", id: "fake-gpt" });
    await ok(q, { type: "switch_session", sessionPath: claudeFile });
    const s = await state(q);
    expect(s.model).toMatchObject({ provider: "fake-anthropic", id: "fake-claude" });
    expect(s.thinkingLevel).toBe("high");
    // a session that never changed its level restores the level it started with
    await ok(q, { type: "new_session" });
    await ok(q, { type: "set_thinking_level", level: "minimal" });
    await ask(q, "x");
    const minimalFile = (await state(q)).sessionFile;
    await ok(q, { type: "new_session" });
    expect((await state(q)).thinkingLevel).toBe("minimal");
    await ask(q, "y");
    const recorded = (await state(q)).sessionFile;
    await ok(q, { type: "switch_session", sessionPath: minimalFile });
    await ok(q, { type: "set_thinking_level", level: "low" });
    await ok(q, { type: "switch_session", sessionPath: recorded });
    expect((await state(q)).thinkingLevel).toBe("minimal");
    await ok(q, { type: "switch_session", sessionPath: claudeFile });
    await ask(q, "continue on claude");
    const req = llm.requests[llm.requests.length - 1];
    expect(req.path).toMatch(/\/messages$/);
    expect(req.body.model).toBe("fake-claude");
    expect(lastRequestTranscript()).toEqual(["user:on claude", "assistant:re: on claude", "user:continue on claude"]);
  });
});

describe("branch / fork", () => {
  async function threePrompts(p: Pith): Promise<{ file: string; ids: string[] }> {
    await ask(p, "u1");
    await ask(p, "u2");
    await ask(p, "u3");
    const { messages } = await ok(p, { type: "get_branch_messages" });
    expect(messages.map((m: Frame) => m.text)).toEqual(["u1", "u2", "u3"]);
    for (const m of messages) expect(m.entryId).toMatch(/^[0-9a-f]{8}$/);
    return { file: (await state(p)).sessionFile, ids: messages.map((m: Frame) => m.entryId) };
  }

  it("branch creates a new file with the history before the message, and the model receives that context", async () => {
    const p = await start();
    const { file, ids } = await threePrompts(p);
    const oldContent = fs.readFileSync(file, "utf8");

    expect(await ok(p, { type: "branch", entryId: ids[1] })).toEqual({ text: "u2", cancelled: false });
    const s = await state(p);
    expect(s.sessionFile).not.toBe(file);
    expect(s.messageCount).toBe(2);
    // written immediately, not lazily
    const lines = readLines(s.sessionFile);
    expect(lines[0]).toMatchObject({ type: "session", id: s.sessionId, parentSession: file });
    expect(fileMessages(s.sessionFile)).toEqual(["user:u1", "assistant:re: u1"]);
    expect(await transcript(p)).toEqual(["user:u1", "assistant:re: u1"]);

    await ask(p, "u2 edited");
    expect(lastRequestTranscript()).toEqual(["user:u1", "assistant:re: u1", "user:u2 edited"]);
    const { messages } = await ok(p, { type: "get_branch_messages" });
    expect(messages.map((m: Frame) => m.text)).toEqual(["u1", "u2 edited"]);
    expect(fs.readFileSync(file, "utf8")).toBe(oldContent);
  });

  it("branching at the first message starts an empty session whose parent is the old file", async () => {
    const p = await start();
    const { file, ids } = await threePrompts(p);
    expect(await ok(p, { type: "branch", entryId: ids[0] })).toEqual({ text: "u1", cancelled: false });
    const s = await state(p);
    expect(s.messageCount).toBe(0);
    expect(s.sessionFile).not.toBe(file);
    await ask(p, "fresh start");
    expect(lastRequestTranscript()).toEqual(["user:fresh start"]);
    expect(readLines(s.sessionFile)[0]).toMatchObject({ parentSession: file });
  });

  it("works in memory with --no-session", async () => {
    const p = await start({ args: ["--no-session"] });
    const { ids } = await threePrompts(p);
    const before = await state(p);
    expect(await ok(p, { type: "branch", entryId: ids[1] })).toEqual({ text: "u2", cancelled: false });
    const s = await state(p);
    expect(s).not.toHaveProperty("sessionFile");
    expect(s.sessionId).not.toBe(before.sessionId);
    await ask(p, "u2 in memory");
    expect(lastRequestTranscript()).toEqual(["user:u1", "assistant:re: u1", "user:u2 in memory"]);
    expect(jsonlFilesUnder(p.pithHome)).toEqual([]);
  });

  it("rejects an unknown id and a non-user entry with the exact error", async () => {
    const p = await start();
    await ask(p, "only");
    const file = (await state(p)).sessionFile;
    const assistantId = readLines(file).find((e) => e.type === "message" && e.message.role === "assistant")!.id;
    expect(await fail(p, { type: "branch", entryId: "deadbeef" })).toBe("Invalid entry ID for branching");
    expect(await fail(p, { type: "branch", entryId: assistantId })).toBe("Invalid entry ID for branching");
    expect(await fail(p, { type: "fork", entryId: assistantId })).toBe("Invalid entry ID for branching");
    expect((await state(p)).sessionFile).toBe(file);
  });

  it("pi's fork and get_fork_messages behave like branch and get_branch_messages", async () => {
    const p = await start();
    const { ids } = await threePrompts(p);
    const branchMsgs = await ok(p, { type: "get_branch_messages" });
    expect(await ok(p, { type: "get_fork_messages" })).toEqual(branchMsgs);
    expect(await ok(p, { type: "fork", entryId: ids[2] })).toEqual({ text: "u3", cancelled: false });
    expect(await transcript(p)).toEqual(["user:u1", "assistant:re: u1", "user:u2", "assistant:re: u2"]);
    await ask(p, "u3 again");
    expect(lastRequestTranscript()).toEqual(["user:u1", "assistant:re: u1", "user:u2", "assistant:re: u2", "user:u3 again"]);
  });

  it("after a branch, get_branch_messages lists the new file's user messages with their original ids", async () => {
    const p = await start();
    const { ids } = await threePrompts(p);
    await ok(p, { type: "branch", entryId: ids[2] });
    await ask(p, "u3b");
    const { messages } = await ok(p, { type: "get_branch_messages" });
    expect(messages.map((m: Frame) => m.text)).toEqual(["u1", "u2", "u3b"]);
    expect(messages[0].entryId).toBe(ids[0]);
  });
});

describe("clone", () => {
  it("duplicates the current branch into a new file that continues independently", async () => {
    const p = await start();
    await ask(p, "c1");
    const src = await state(p);
    expect(await ok(p, { type: "clone" })).toEqual({ cancelled: false });
    const s = await state(p);
    expect(s.sessionFile).not.toBe(src.sessionFile);
    expect(s.sessionId).not.toBe(src.sessionId);
    expect(readLines(s.sessionFile)[0]).toMatchObject({ type: "session", id: s.sessionId, parentSession: src.sessionFile });
    expect(fileMessages(s.sessionFile)).toEqual(["user:c1", "assistant:re: c1"]);
    await ask(p, "c2");
    expect(lastRequestTranscript()).toEqual(["user:c1", "assistant:re: c1", "user:c2"]);
    expect(fileMessages(src.sessionFile)).toEqual(["user:c1", "assistant:re: c1"]);
  });
});

describe("history commands", () => {
  it("get_messages and get_last_assistant_text follow the context, skipping an aborted empty reply", async () => {
    const p = await start();
    expect(await ok(p, { type: "get_messages" })).toEqual({ messages: [] });
    await ask(p, "q1", { text: ["  The ", "answer  "] });
    expect(await ok(p, { type: "get_last_assistant_text" })).toEqual({ text: "The answer" });
    // a reply that is aborted before any content is skipped
    llm.enqueue({ hang: true });
    const from = p.frames.length;
    await ok(p, { type: "prompt", message: "q2" });
    await p.waitFor((f) => f.type === "message_start" && f.message.role === "assistant", 10_000, from);
    await ok(p, { type: "abort" });
    await p.waitIdle(10_000, from);
    const { messages } = await ok(p, { type: "get_messages" });
    expect(messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[3]).toMatchObject({ stopReason: "aborted", content: [] });
    expect(await ok(p, { type: "get_last_assistant_text" })).toEqual({ text: "The answer" });
    // a tool-call-only reply has no text: {} (the key is dropped, not null)
    llm.enqueue({ toolCalls: [{ id: "c1", name: "ls", arguments: { path: "." } }] });
    await ask(p, "q3", { text: "" });
    expect(await ok(p, { type: "get_last_assistant_text" })).toEqual({});
  });

  it("set_session_name: exact error for empty names, sanitised, visible in get_state and persisted", async () => {
    const p = await start();
    for (const name of ["", "   ", "\u0001\u0002 \u007f"]) {
      expect(await fail(p, { type: "set_session_name", name })).toBe("Session name cannot be empty");
    }
    expect(await state(p)).not.toHaveProperty("sessionName");
    await ask(p, "name me");
    const res = await p.request({ type: "set_session_name", name: "  My\t\tproject \n session " });
    expect(res).toMatchObject({ success: true });
    expect(res).not.toHaveProperty("data");
    const s = await state(p);
    expect(s.sessionName).toBe("My project session");
    expect(await p.close()).toBe(0);

    const q = await start({ pithHome: p.pithHome, cwd: p.cwd, args: ["--session", s.sessionFile] });
    expect(await state(q)).toMatchObject({ sessionId: s.sessionId, sessionName: "My project session", messageCount: 2 });
  });

  it("set_session_name before the first reply is written with the file", async () => {
    const p = await start();
    await ok(p, { type: "set_session_name", name: "early" });
    expect((await state(p)).sessionName).toBe("early");
    await ask(p, "hi");
    const file = (await state(p)).sessionFile;
    expect(await p.close()).toBe(0);
    const q = await start({ pithHome: p.pithHome, cwd: p.cwd, args: ["--session", file] });
    expect((await state(q)).sessionName).toBe("early");
  });

  it("get_session_stats: counts, tokens and cost match the usage the fake reported", async () => {
    const p = await start({ provider: ANTHROPIC });
    const u1 = { input: 1000, output: 200, cacheRead: 300, cacheWrite: 40 };
    const u2 = { input: 1500, output: 10, cacheRead: 0, cacheWrite: 0 };
    const u3 = { input: 1700, output: 90, cacheRead: 500, cacheWrite: 0 };
    await ask(p, "plain", { text: "ok", usage: u1 });
    llm.enqueue({ toolCalls: [{ id: "t1", name: "ls", arguments: { path: "." } }, { id: "t2", name: "ls", arguments: { path: "." } }], usage: u2 });
    await ask(p, "tools", { text: "listed", usage: u3 });
    const stats = await ok(p, { type: "get_session_stats" });
    const s = await state(p);
    const sum = (k: "input" | "output" | "cacheRead" | "cacheWrite") => u1[k] + u2[k] + u3[k];
    // prices from fakeModelsJson, USD per million tokens
    const costOf = (u: typeof u1) => (u.input * 3 + u.output * 15 + u.cacheRead * 0.3 + u.cacheWrite * 3.75) / 1e6;
    expect(stats).toMatchObject({
      sessionFile: s.sessionFile,
      sessionId: s.sessionId,
      userMessages: 2,
      assistantMessages: 3,
      toolCalls: 2,
      toolResults: 2,
      totalMessages: 7,
      premiumRequests: 0,
      tokens: {
        input: sum("input"),
        output: sum("output"),
        cacheRead: sum("cacheRead"),
        cacheWrite: sum("cacheWrite"),
        total: sum("input") + sum("output") + sum("cacheRead") + sum("cacheWrite"),
      },
    });
    expect(stats.cost).toBeCloseTo(costOf(u1) + costOf(u2) + costOf(u3), 12);
    expect(s.messageCount).toBe(7);
  });
});

describe("export_html", () => {
  function embedded(html: string): Frame {
    const b64 = /id="session-data">([^<]*)</.exec(html)![1];
    return JSON.parse(Buffer.from(b64, "base64").toString("utf8"));
  }

  it("writes to a default path relative to the cwd, or to outputPath as given", async () => {
    const p = await start();
    await ask(p, "export me");
    const s = await state(p);
    const { path: out } = await ok(p, { type: "export_html" });
    expect(out).toBe(`pith-session-${path.basename(s.sessionFile, ".jsonl")}.html`);
    const html = fs.readFileSync(path.join(p.cwd, out), "utf8");
    const data = embedded(html);
    expect(data.header.id).toBe(s.sessionId);
    expect(data.entries.filter((e: Frame) => e.type === "message").map((e: Frame) => textOf(e.message.content))).toEqual(["export me", "re: export me"]);

    expect(await ok(p, { type: "export_html", outputPath: "out/page.html" })).toEqual({ path: "out/page.html" });
    expect(fs.existsSync(path.join(p.cwd, "out/page.html"))).toBe(true);
    const abs = path.join(tempDir("pith-export-"), "abs.html");
    expect(await ok(p, { type: "export_html", outputPath: abs })).toEqual({ path: abs });
    expect(embedded(fs.readFileSync(abs, "utf8")).header.id).toBe(s.sessionId);
    // nothing was appended to the session
    expect(fileMessages(s.sessionFile)).toHaveLength(2);
  });

  it("fails for an in-memory session", async () => {
    const p = await start({ args: ["--no-session"] });
    await ask(p, "ephemeral");
    expect(await fail(p, { type: "export_html" })).toBe("Cannot export in-memory session to HTML");
  });
});

describe("a running turn during a session change", () => {
  async function startHanging(p: Pith): Promise<{ from: number; file: string }> {
    const file = (await state(p)).sessionFile;
    llm.enqueue({ hang: true });
    const from = p.frames.length;
    const requests = llm.requests.length;
    await ok(p, { type: "prompt", message: "never finishes" });
    await p.waitFor((f) => f.type === "message_start" && f.message.role === "assistant", 10_000, from);
    // The hanging reply must be taken by this request: message_start comes before the request is
    // on the wire, and an abort while connecting would leave the reply for the next prompt.
    await llm.waitForRequests(requests + 1, 10_000);
    return { from, file };
  }

  function expectRunEndedBeforeResponse(p: Pith, from: number, command: string): void {
    const frames = p.frames.slice(from);
    const end = frames.findIndex((f) => f.type === "agent_end");
    const res = frames.findIndex((f) => f.type === "response" && f.command === command);
    expect(end, "agent_end seen").toBeGreaterThanOrEqual(0);
    expect(res).toBeGreaterThan(end);
    const aborted = frames.find((f) => f.type === "message_end" && f.message.role === "assistant");
    expect(aborted?.message.stopReason).toBe("aborted");
  }

  it("new_session: the host sees agent_end before the response; the aborted turn stays in the old file", async () => {
    const p = await start();
    const { from, file } = await startHanging(p);
    await ok(p, { type: "new_session" });
    expectRunEndedBeforeResponse(p, from, "new_session");
    expect(fileMessages(file)).toEqual(["user:never finishes", "assistant:"]);
    expect(await state(p)).toMatchObject({ isStreaming: false, messageCount: 0 });
    await ask(p, "after");
    expect(lastRequestTranscript()).toEqual(["user:after"]);
  });

  it("switch_session: the host sees agent_end before the response", async () => {
    const p = await start();
    await ask(p, "target");
    const target = (await state(p)).sessionFile;
    await ok(p, { type: "new_session" });
    const { from } = await startHanging(p);
    await ok(p, { type: "switch_session", sessionPath: target });
    expectRunEndedBeforeResponse(p, from, "switch_session");
    expect(await state(p)).toMatchObject({ isStreaming: false, sessionFile: target, messageCount: 2 });
  });

  it("branch: the host sees agent_end before the response; the new file has no trace of the aborted turn", async () => {
    const p = await start();
    await ask(p, "b1");
    await ask(p, "b2");
    const { messages } = await ok(p, { type: "get_branch_messages" });
    const { from, file } = await startHanging(p);
    expect(await ok(p, { type: "branch", entryId: messages[1].entryId })).toEqual({ text: "b2", cancelled: false });
    expectRunEndedBeforeResponse(p, from, "branch");
    const s = await state(p);
    expect(s.isStreaming).toBe(false);
    expect(fileMessages(s.sessionFile)).toEqual(["user:b1", "assistant:re: b1"]);
    expect(fileMessages(file).slice(-2)).toEqual(["user:never finishes", "assistant:"]);
  });
});

describe("CLI session flags", () => {
  it("--no-session: no sessionFile, nothing on disk, new_session stays in memory", async () => {
    const p = await start({ args: ["--no-session"] });
    const s = await state(p);
    expect(s).not.toHaveProperty("sessionFile");
    expect(s.sessionId).toMatch(/^[0-9a-f]{16}$/);
    await ask(p, "nothing saved");
    await ok(p, { type: "set_session_name", name: "memory only" });
    await ok(p, { type: "new_session" });
    const s2 = await state(p);
    expect(s2).not.toHaveProperty("sessionFile");
    expect(s2.sessionId).not.toBe(s.sessionId);
    await ask(p, "still nothing");
    const stats = await ok(p, { type: "get_session_stats" });
    expect(stats).not.toHaveProperty("sessionFile");
    expect(await p.close()).toBe(0);
    expect(jsonlFilesUnder(p.pithHome)).toEqual([]);
    expect(jsonlFilesUnder(p.cwd)).toEqual([]);
  });

  /** Two finished sessions in one PITH_HOME/cwd; returns their files (a older than b by mtime). */
  async function twoSessions(args: string[] = []): Promise<{ home: string; cwd: string; a: string; b: string }> {
    const home = tempDir("pith-home-");
    const cwd = tempDir("pith-cwd-");
    const files: string[] = [];
    for (const text of ["session A", "session B"]) {
      const p = await start({ pithHome: home, cwd, args });
      await ask(p, text);
      files.push((await state(p)).sessionFile);
      expect(await p.close()).toBe(0);
    }
    const [a, b] = files;
    fs.utimesSync(a, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    return { home, cwd, a, b };
  }

  it("--continue opens the most recently modified session, or a new one when there is none", async () => {
    const { home, cwd, a, b } = await twoSessions();
    const p = await start({ pithHome: home, cwd, args: ["--continue"] });
    expect((await state(p)).sessionFile).toBe(b);
    expect(await transcript(p)).toEqual(["user:session B", "assistant:re: session B"]);
    await ask(p, "more B");
    expect(lastRequestTranscript()).toEqual(["user:session B", "assistant:re: session B", "user:more B"]);
    expect(await p.close()).toBe(0);

    // mtime decides, not the file name
    const later = new Date(Date.now() + 60_000);
    fs.utimesSync(a, later, later);
    const q = await start({ pithHome: home, cwd, args: ["--continue"] });
    expect((await state(q)).sessionFile).toBe(a);
    expect(await transcript(q)).toEqual(["user:session A", "assistant:re: session A"]);

    const fresh = await start({ args: ["--continue"] });
    const s = await state(fresh);
    expect(s.messageCount).toBe(0);
    expect(fs.existsSync(s.sessionFile)).toBe(false);
  });

  it("--session accepts an id prefix (case-insensitive) or a path, and fails for no match", async () => {
    const { home, cwd, a, b } = await twoSessions();
    const idOf = (f: string) => path.basename(f, ".jsonl").split("_").pop()!;
    const byPrefix = await start({ pithHome: home, cwd, args: ["--session", idOf(a).slice(0, 12).toUpperCase()] });
    expect((await state(byPrefix)).sessionId).toBe(idOf(a));
    expect(await transcript(byPrefix)).toEqual(["user:session A", "assistant:re: session A"]);
    expect(await byPrefix.close()).toBe(0);

    const byPath = await start({ pithHome: home, cwd, args: ["--session", b] });
    expect((await state(byPath)).sessionFile).toBe(b);
    expect(await byPath.close()).toBe(0);

    const res = runCliOnce(home, cwd, ["--session", "ffffffffffff"]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain('Session "ffffffffffff" not found.');
  });

  it("--session <path> of a file that does not exist yet creates the session at that path", async () => {
    const p = await start({ args: ["--session", "chosen/name.jsonl"] });
    const file = path.join(p.cwd, "chosen/name.jsonl");
    const s = await state(p);
    expect(s.sessionFile).toBe(file);
    expect(fs.existsSync(file)).toBe(false);
    await ask(p, "here");
    expect(readLines(file)[0]).toMatchObject({ type: "session", id: s.sessionId });
    expect(await p.close()).toBe(0);
    const q = await start({ pithHome: p.pithHome, cwd: p.cwd, args: ["--session", "chosen/name.jsonl"] });
    expect(await transcript(q)).toEqual(["user:here", "assistant:re: here"]);
  });

  it("--session <id prefix> of another project's session fails naming that project", async () => {
    const home = tempDir("pith-home-");
    const elsewhere = tempDir("pith-cwd-");
    const p = await start({ pithHome: home, cwd: elsewhere });
    await ask(p, "elsewhere");
    const id = (await state(p)).sessionId;
    expect(await p.close()).toBe(0);
    const res = runCliOnce(home, tempDir("pith-cwd-"), ["--session", id.slice(0, 10)]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toContain(`Session "${id.slice(0, 10)}" is in another project (${elsewhere}).`);
  });

  it("--session-dir puts sessions in that directory (relative to cwd) and --continue reads from it", async () => {
    const { home, cwd, b } = await twoSessions(["--session-dir", "my-sessions"]);
    const dir = path.join(cwd, "my-sessions");
    expect(path.dirname(b)).toBe(dir);
    expect(jsonlFilesUnder(dir)).toHaveLength(2);
    expect(jsonlFilesUnder(path.join(home, "sessions"))).toEqual([]);
    const p = await start({ pithHome: home, cwd, args: ["--session-dir", "my-sessions", "--continue"] });
    expect((await state(p)).sessionFile).toBe(b);
    // without the flag the default folder is used and is empty: a new session
    const q = await start({ pithHome: home, cwd, args: ["--continue"] });
    expect((await state(q)).messageCount).toBe(0);
  });
});

describe("older pi dialect", () => {
  it("resume_session {sessionFile} switches like switch_session", async () => {
    const dir = tempDir("pith-script-");
    const script = path.join(dir, "s.json");
    fs.writeFileSync(script, JSON.stringify({ replies: [{ text: "first answer" }] }));
    const p = await Pith.start({ args: ["--provider", "scripted", "--model", script] });
    open.push(p);
    await p.promptAndWait("hello");
    const fileA = (await p.request({ type: "get_state" })).data.sessionFile;
    await p.request({ type: "new_session" });
    expect((await p.request({ type: "get_messages" })).data.messages).toEqual([]);
    const res = await p.request({ id: "r1", type: "resume_session", sessionFile: fileA });
    expect(res).toEqual({ type: "response", id: "r1", command: "resume_session", success: true, data: { cancelled: false } });
    const msgs = (await p.request({ type: "get_messages" })).data.messages;
    expect(msgs.map((m: { role: string }) => m.role)).toEqual(["user", "assistant"]);
  });
});

// The storage-bound path of the cases above, once per store (session files, session database):
// what is written is read back from the store itself, and a new process continues it.
describe.each(STORES)("sessions on each store (%s)", (kind) => {
  const messagesOf = async (ref: string) =>
    (await stores.lines(kind, ref)).filter((e) => e.type === "message").map((e) => `${e.message.role}:${textOf(e.message.content)}`);

  it("branch, clone, switch_session and a restart keep each session's entries in the store", async (ctx) => {
    if (stores.skip(kind)) return ctx.skip(stores.skip(kind));
    const pithHome = tempDir("pith-home-");
    const cwd = tempDir("pith-cwd-");
    const p = await start({ pithHome, cwd, args: stores.args(kind) });
    await ask(p, "u1");
    await ask(p, "u2");
    const first = await state(p);
    const { messages } = await ok(p, { type: "get_branch_messages" });

    expect(await ok(p, { type: "branch", entryId: messages[1].entryId })).toEqual({ text: "u2", cancelled: false });
    const branched = await state(p);
    expect(branched.sessionFile).not.toBe(first.sessionFile);
    expect((await stores.lines(kind, branched.sessionFile))[0]).toMatchObject({ type: "session", id: branched.sessionId, parentSession: first.sessionFile });
    await ask(p, "u2 edited");
    expect(lastRequestTranscript()).toEqual(["user:u1", "assistant:re: u1", "user:u2 edited"]);

    expect(await ok(p, { type: "clone" })).toEqual({ cancelled: false });
    const cloned = await state(p);
    await ask(p, "c3");
    expect(await messagesOf(cloned.sessionFile)).toEqual(["user:u1", "assistant:re: u1", "user:u2 edited", "assistant:re: u2 edited", "user:c3", "assistant:re: c3"]);
    expect(await messagesOf(branched.sessionFile)).toEqual(["user:u1", "assistant:re: u1", "user:u2 edited", "assistant:re: u2 edited"]);

    await ok(p, { type: "switch_session", sessionPath: first.sessionFile });
    expect(await transcript(p)).toEqual(["user:u1", "assistant:re: u1", "user:u2", "assistant:re: u2"]);
    await ask(p, "u3");
    expect(lastRequestTranscript()).toEqual(["user:u1", "assistant:re: u1", "user:u2", "assistant:re: u2", "user:u3"]);
    const listed = await ok(p, { type: "list_sessions" });
    expect(listed.sessions.map((x: Frame) => x.path).sort()).toEqual([first.sessionFile, branched.sessionFile, cloned.sessionFile].sort());
    expect(await p.close()).toBe(0);

    // a new process continues the newest session of the folder, as stored
    const q = await start({ pithHome, cwd, args: [...stores.args(kind), "--continue"] });
    expect((await state(q)).sessionFile).toBe(first.sessionFile);
    expect(await transcript(q)).toEqual(await messagesOf(first.sessionFile));
  });
});
