import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SessionStore } from "./session-store.js";
import { buildSessionContext } from "./build-context.js";
import { assistant, tmpDir, user } from "../../test/support/store.js";
import type { UserMessage } from "../shared/types.js";

const open: SessionStore[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});

function conversation(): { s: SessionStore; u1: string; u2: string; u3: string } {
  const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w" });
  open.push(s);
  s.append({ type: "model_change", provider: "openai", modelId: "gpt-test" });
  const u1 = s.appendMessage(user("first")).id;
  s.append({ type: "label", targetId: u1, label: "start-here" });
  s.appendMessage(assistant("A1"));
  const multi: UserMessage = { role: "user", content: [{ type: "text", text: "sec" }, { type: "image", data: "AAAA", mimeType: "image/png" }, { type: "text", text: "ond" }], timestamp: 1 };
  const u2 = s.appendMessage(multi).id;
  s.appendMessage(assistant("A2"));
  s.moveLeaf(u1);
  const u3 = s.appendMessage(user("other branch")).id;
  s.appendMessage(assistant("A3"));
  return { s, u1, u2, u3 };
}

const texts = (st: SessionStore): string[] =>
  buildSessionContext(st).messages.map((m) => (m.role === "user" || m.role === "assistant" ? JSON.stringify(m.content).slice(0, 40) : m.role));

describe("branching", () => {
  it("branchToNewFile keeps the history before the chosen user message in a new file", () => {
    const { s, u1, u2 } = conversation();
    const { store, text } = s.branchToNewFile(u2);
    open.push(store);
    expect(text).toBe("second");
    expect(store.path).not.toBe(s.path);
    expect(store.header.parentSession).toBe(s.path);
    expect(store.sessionId).not.toBe(s.sessionId);
    expect(fs.existsSync(store.path!)).toBe(true); // written immediately
    const file = store.path!;
    store.close();
    const r = SessionStore.open(file, { cwd: "/w" });
    open.push(r);
    // model_change, u1, A1 (the label was re-created after the path)
    expect(r.entries().map((e) => e.type)).toEqual(["model_change", "message", "message", "label"]);
    expect(r.getLabel(u1)).toBe("start-here");
    expect(buildSessionContext(r).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(buildSessionContext(r).model).toEqual({ provider: "openai", modelId: "gpt-test" });
    // the new file gets new appends chained after the copied path
    expect(r.appendMessage(user("edited")).parentId).toBe(r.entries()[3].id);
  });

  it("branching at the first message gives an empty session referencing the old file", () => {
    const s = SessionStore.create({ sessionDir: tmpDir(), cwd: "/w" });
    open.push(s);
    const u1 = s.appendMessage(user("first")).id;
    s.appendMessage(assistant("A1"));
    const { store, text } = s.branchToNewFile(u1);
    open.push(store);
    expect(text).toBe("first");
    expect(store.entries()).toEqual([]);
    expect(store.header.parentSession).toBe(s.path);
    expect(fs.existsSync(store.path!)).toBe(false); // lazy like new_session
  });

  it("rejects entries that are not user messages", () => {
    const { s } = conversation();
    const notUser = s.entries().find((e) => e.type === "model_change")!;
    expect(() => s.branchToNewFile(notUser.id)).toThrow("Invalid entry ID for branching");
    expect(() => s.branchToNewFile("ffffffff")).toThrow("Invalid entry ID for branching");
  });

  it("branches in memory for an in-memory session", () => {
    const s = SessionStore.inMemory({ cwd: "/w" });
    s.appendMessage(user("a"));
    s.appendMessage(assistant("b"));
    const u = s.appendMessage(user("c"));
    const { store } = s.branchToNewFile(u.id);
    expect(store.path).toBeUndefined();
    expect(buildSessionContext(store).messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(() => s.cloneToNewFile()).toThrow("Cannot clone an in-memory session");
  });

  it("cloneToNewFile copies the current branch only", () => {
    const { s } = conversation();
    const c = s.cloneToNewFile();
    open.push(c);
    expect(texts(c)).toEqual(texts(s));
    const file = c.path!;
    c.close();
    const r = SessionStore.open(file, { cwd: "/w" });
    open.push(r);
    expect(texts(r)).toEqual(texts(s));
    expect(r.entries().some((e) => e.type === "message" && e.message.role === "user" && JSON.stringify(e.message.content).includes("sec"))).toBe(false);
  });

  it("userMessageEntries lists user messages of all branches in file order", () => {
    const { s, u1, u2, u3 } = conversation();
    s.appendMessage({ role: "user", content: [{ type: "image", data: "AA", mimeType: "image/png" }], timestamp: 1 });
    expect(s.userMessageEntries()).toEqual([
      { entryId: u1, text: "first" },
      { entryId: u2, text: "second" },
      { entryId: u3, text: "other branch" },
    ]);
  });
});
