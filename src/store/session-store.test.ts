import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PithError } from "../shared/errors.js";
import type { CustomMessage } from "../shared/types.js";
import { SessionStore } from "./session-store.js";
import { buildSessionContext } from "./build-context.js";
import { assistant, tmpDir, toolResult, user } from "../../test/support/store.js";

const open: SessionStore[] = [];
function track(s: SessionStore): SessionStore {
  open.push(s);
  return s;
}
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function lines(file: string): Record<string, unknown>[] {
  return fs
    .readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe("SessionStore", () => {
  it("round-trips every entry type through the file", () => {
    const dir = tmpDir();
    const s = track(SessionStore.create({ sessionDir: dir, cwd: "/work/app", parentSession: "/old.jsonl" }));
    s.append({ type: "model_change", provider: "anthropic", modelId: "claude-x" });
    s.append({ type: "thinking_level_change", thinkingLevel: "high" });
    const u = s.appendMessage(user("hello <b>"));
    expect(s.path && fs.existsSync(s.path)).toBe(false); // lazy until the first assistant message
    s.appendMessage(assistant("hi", { toolCalls: 1 }));
    expect(fs.existsSync(s.path!)).toBe(true);
    s.appendMessage(toolResult("file body"));
    const custom: CustomMessage = { role: "custom", customType: "note", content: "ctx", display: false, details: { a: 1 }, timestamp: 5 };
    s.appendMessage(custom);
    s.append({ type: "compaction",  summary: "S", shortSummary: "s", firstKeptEntryId: u.id, tokensBefore: 1234, details: { readFiles: ["a"] } });
    s.append({ type: "branch_summary",  fromId: "root", summary: "abandoned path" });
    s.append({ type: "label", targetId: u.id, label: "start" });
    s.setName("  My\u0007  session ");
    s.append({ type: "custom", customType: "ext-state", data: { n: 2 } });
    s.append({ type: "thinking_level_change", thinkingLevel: null });
    const written = s.entries().map((e) => ({ ...e }));
    const file = s.path!;
    s.close();

    const raw = lines(file);
    expect(raw[0]).toMatchObject({ type: "session", version: 3, id: s.sessionId, cwd: "/work/app", parentSession: "/old.jsonl" });
    expect(raw[0].id).toMatch(/^[0-9a-f]{16}$/);
    expect(raw.slice(1).map((r) => r.type)).toEqual([
      "model_change", "thinking_level_change", "message", "message", "message", "custom_message",
      "compaction", "branch_summary", "label", "session_info", "custom", "thinking_level_change",
    ]);
    expect(raw[6]).toMatchObject({ customType: "note", content: "ctx", display: false, details: { a: 1 } });
    expect(raw[6]).not.toHaveProperty("role");

    const r = track(SessionStore.open(file, { cwd: "/elsewhere" }));
    expect(r.warnings).toEqual([]);
    expect(r.entries()).toEqual(written);
    expect(r.sessionId).toBe(s.sessionId);
    expect(r.name).toBe("My session");
    expect(r.getLabel(u.id)).toBe("start");
    expect(r.leafId).toBe(written[written.length - 1].id);
    expect(r.cwd).toBe("/elsewhere");
    // chained: each entry's parent is the previous one
    written.forEach((e, i) => expect(e.parentId).toBe(i === 0 ? null : written[i - 1].id));
    expect(new Set(written.map((e) => e.id)).size).toBe(written.length);
    for (const e of written) expect(e.id).toMatch(/^[0-9a-f]{8}$/);

    const ctx = buildSessionContext(r);
    expect(ctx.thinkingLevel).toBe("off");
    expect(ctx.model).toEqual({ provider: "openai", modelId: "gpt-test" });
    expect(ctx.messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant", "toolResult", "custom", "branchSummary"]);
  });

  it("appends after reopen and keeps the tree", () => {
    const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", eager: true });
    expect(lines(s.path!)).toHaveLength(1);
    s.appendMessage(user("a"));
    const file = s.path!;
    s.close();
    const r = track(SessionStore.open(file, { cwd: "/w" }));
    const before = r.leafId;
    const e = r.appendMessage(user("b"));
    expect(e.parentId).toBe(before);
    expect(lines(file)).toHaveLength(3);
  });

  it("writes on the first append when deferUntilAssistant is false", () => {
    const s = track(SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", deferUntilAssistant: false }));
    s.append({ type: "thinking_level_change", thinkingLevel: "low" });
    expect(lines(s.path!).map((l) => l.type)).toEqual(["session", "thinking_level_change"]);
  });

  it("moves the leaf in memory and branches inside the file", () => {
    const s = track(SessionStore.inMemory({ cwd: "/w" }));
    const a = s.appendMessage(user("a"));
    s.appendMessage(assistant("A"));
    s.moveLeaf(a.id);
    s.appendMessage(assistant("A2"));
    expect(buildSessionContext(s).messages.map((m) => (m.role === "assistant" ? m.content[0] : m.role))).toEqual([
      "user",
      { type: "text", text: "A2" },
    ]);
    expect(s.entries()).toHaveLength(3);
    expect(() => s.moveLeaf("nope")).toThrow(PithError);
  });

  it("rejects bad input with typed errors", () => {
    const s = track(SessionStore.inMemory({ cwd: "/w" }));
    expect(() => s.setName(" \u0001 ")).toThrow("Session name cannot be empty");
    expect(() => s.append({ type: "label", targetId: "missing", label: "x" })).toThrow(PithError);
    expect(() => s.appendMessage({ role: "compactionSummary", summary: "x", tokensBefore: 1, timestamp: 1 })).toThrow(PithError);
    expect(s.path).toBeUndefined();
    s.close();
    expect(() => s.appendMessage(user("late"))).toThrow(/closed/);
  });

  it("gives clear errors for missing and non-session files", () => {
    const dir = tmpDir();
    const missing = path.join(dir, "nope.jsonl");
    expect(() => SessionStore.open(missing, { cwd: dir })).toThrow(expect.objectContaining({ code: "not_found" }));
    const other = path.join(dir, "other.jsonl");
    fs.writeFileSync(other, '{"type":"message","id":"x"}\n');
    expect(() => SessionStore.open(other, { cwd: dir })).toThrow(expect.objectContaining({ code: "invalid_request" }));
    fs.writeFileSync(other, "");
    expect(() => SessionStore.open(other, { cwd: dir })).toThrow(/not a session header/);
    expect(() => SessionStore.open(dir, { cwd: dir })).toThrow(expect.objectContaining({ code: "invalid_request" }));
  });

  it("skips a corrupt middle line with a warning", () => {
    const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", eager: true });
    s.appendMessage(user("one"));
    s.appendMessage(user("two"));
    const file = s.path!;
    s.close();
    const ls = fs.readFileSync(file, "utf8").split("\n");
    ls.splice(2, 0, '{"type":"message", garbage', "[1,2]");
    fs.writeFileSync(file, ls.join("\n"));
    const r = track(SessionStore.open(file, { cwd: "/w" }));
    expect(r.entries()).toHaveLength(2);
    expect(r.warnings).toHaveLength(2);
    expect(r.warnings[0]).toMatch(/line 3/);
    expect(buildSessionContext(r).messages).toHaveLength(2);
  });

  it("createAt makes a new session at exactly the given path, lazily, and refuses an existing file", () => {
    const file = path.join(tmpDir(), "nested", "chosen.jsonl");
    const s = track(SessionStore.createAt(file, { cwd: "/w" }));
    expect(s.path).toBe(file);
    s.appendMessage(user("q"));
    expect(fs.existsSync(file)).toBe(false);
    s.appendMessage(assistant("a"));
    expect(lines(file)[0]).toMatchObject({ type: "session", id: s.sessionId, cwd: "/w" });
    expect(lines(file)).toHaveLength(3);
    expect(() => SessionStore.createAt(file, { cwd: "/w" })).toThrow(/already exists/);
  });

  it("opens read-only without a lock and refuses appends", () => {
    const s = track(SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", eager: true }));
    const ro = SessionStore.open(s.path!, { cwd: "/w", readOnly: true });
    expect(() => ro.appendMessage(user("x"))).toThrow(/read-only/);
  });

  it("fsync always still writes every line", () => {
    const s = track(SessionStore.create({ sessionDir: tmpDir(), cwd: "/w", fsync: "always", deferUntilAssistant: false }));
    for (let i = 0; i < 5; i++) s.appendMessage(user(`m${i}`));
    expect(lines(s.path!)).toHaveLength(6);
  });

  it("reports write failures as io errors on every later append and keeps the entries in memory", () => {
    const notADir = path.join(tmpDir(), "file");
    fs.writeFileSync(notADir, "x");
    const s = SessionStore.create({ sessionDir: notADir, cwd: "/w", deferUntilAssistant: false });
    expect(() => s.appendMessage(user("a"))).toThrow(expect.objectContaining({ code: "io" }));
    expect(() => s.appendMessage(user("b"))).toThrow(expect.objectContaining({ code: "io" }));
    expect(s.entries()).toHaveLength(2);
    expect(s.isPersisted).toBe(false);
  });
});
