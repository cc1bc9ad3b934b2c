import { describe, expect, it } from "vitest";
import { SessionStore } from "./session-store.js";
import { buildSessionContext } from "./build-context.js";
import { assistant, user } from "../../test/support/store.js";

describe("buildSessionContext", () => {
  it("is empty for an empty session", () => {
    expect(buildSessionContext(SessionStore.inMemory({ cwd: "/" }))).toEqual({ messages: [] });
  });

  it("starts with the latest compaction summary, then kept entries, then later ones", () => {
    const s = SessionStore.inMemory({ cwd: "/" });
    s.appendMessage(user("old1"));
    s.append({ type: "compaction",  summary: "first summary", firstKeptEntryId: s.leafId!, tokensBefore: 10 });
    s.appendMessage(assistant("old2"));
    const kept = s.appendMessage(user("kept"));
    s.appendMessage(assistant("kept reply"));
    s.append({ type: "compaction",  summary: "second", shortSummary: "2nd", firstKeptEntryId: kept.id, tokensBefore: 999 });
    s.appendMessage(user("after"));
    s.append({ type: "branch_summary",  fromId: "root", summary: "" }); // empty summaries contribute nothing
    const ctx = buildSessionContext(s);
    expect(ctx.messages[0]).toMatchObject({ role: "compactionSummary", summary: "second", shortSummary: "2nd", tokensBefore: 999 });
    expect(ctx.messages.slice(1).map((m) => (m.role === "user" ? m.content : m.role))).toEqual([
      [{ type: "text", text: "kept" }],
      "assistant",
      [{ type: "text", text: "after" }],
    ]);
  });

  it("keeps nothing before a compaction whose firstKeptEntryId is not on the path", () => {
    const s = SessionStore.inMemory({ cwd: "/" });
    s.appendMessage(user("gone"));
    s.append({ type: "compaction",  summary: "S", firstKeptEntryId: "deadbeef", tokensBefore: 1 });
    expect(buildSessionContext(s).messages.map((m) => m.role)).toEqual(["compactionSummary"]);
  });

  it("takes the latest model (model_change or assistant) and thinking level on the path", () => {
    const s = SessionStore.inMemory({ cwd: "/" });
    s.append({ type: "thinking_level_change", thinkingLevel: "high" });
    s.appendMessage(assistant("x"));
    s.append({ type: "model_change", provider: "anthropic", modelId: "claude-y" });
    const branchPoint = s.leafId;
    s.append({ type: "thinking_level_change", thinkingLevel: "low" });
    expect(buildSessionContext(s)).toMatchObject({ model: { provider: "anthropic", modelId: "claude-y" }, thinkingLevel: "low" });
    s.moveLeaf(branchPoint);
    s.appendMessage(assistant("y"));
    expect(buildSessionContext(s)).toMatchObject({ model: { provider: "openai", modelId: "gpt-test" }, thinkingLevel: "high" });
  });

  it("survives a parent cycle in a corrupt file", () => {
    const s = SessionStore.inMemory({ cwd: "/" });
    const a = s.appendMessage(user("a"));
    const b = s.appendMessage(user("b"));
    (a as { parentId: string | null }).parentId = b.id;
    expect(buildSessionContext(s).messages).toHaveLength(2);
  });
});
