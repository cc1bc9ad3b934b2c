import { appendFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { AgentSessionEvent } from "../shared/types.js";
import { SubagentRegistry, type AgentProgress, type SubagentLifecycle } from "./subagent-registry.js";
import { readSubagentTranscript } from "./subagent-transcript.js";
import { createJsonlStorage } from "../store/jsonl-storage.js";

const storage = createJsonlStorage();

const life = (id: string, status: SubagentLifecycle["status"], o: Partial<SubagentLifecycle> = {}): SubagentLifecycle => ({
  id,
  agent: "explore",
  agentSource: "bundled",
  status,
  index: 0,
  parentToolCallId: "call1",
  sessionFile: `/s/${id}.jsonl`,
  ...o,
});

const progress = (id: string, o: Partial<AgentProgress> = {}): AgentProgress => ({
  index: 0,
  id,
  agent: "explore",
  agentSource: "bundled",
  status: "running",
  task: "T",
  recentTools: [],
  recentOutput: [],
  toolCount: 1,
  requests: 1,
  tokens: 10,
  cost: 0,
  durationMs: 5,
  ...o,
});

function registry() {
  const out: AgentSessionEvent[] = [];
  return { reg: new SubagentRegistry((e) => out.push(e)), out };
}

describe("SubagentRegistry", () => {
  it("off writes nothing; progress writes lifecycle and progress; events also subagent_event", () => {
    const { reg, out } = registry();
    const ev: AgentSessionEvent = { type: "turn_start" } as AgentSessionEvent;
    reg.report(life("a", "started"), { task: "T", assignment: "A" });
    reg.progress({ index: 0, agent: "explore", agentSource: "bundled", task: "T", parentToolCallId: "call1", progress: progress("a") });
    reg.event("a", ev);
    expect(out).toEqual([]);
    reg.setSubscription("progress");
    reg.progress({ index: 0, agent: "explore", agentSource: "bundled", task: "T", parentToolCallId: "call1", progress: progress("a") });
    reg.event("a", ev);
    expect(out.map((e) => e.type)).toEqual(["subagent_progress"]);
    reg.setSubscription("events");
    reg.event("a", ev);
    reg.report(life("a", "completed"));
    expect(out.map((e) => e.type)).toEqual(["subagent_progress", "subagent_event", "subagent_lifecycle"]);
    expect(out[1]).toEqual({ type: "subagent_event", payload: { id: "a", event: ev } });
  });

  it("lists running subagents by index with their latest progress; ended ones leave the list", () => {
    const { reg } = registry();
    reg.report(life("b", "started", { index: 1 }), { task: "TB", assignment: "B" });
    reg.report(life("a", "started", { index: 0 }), { task: "TA", assignment: "A" });
    reg.progress({ index: 1, agent: "explore", agentSource: "bundled", task: "TB", parentToolCallId: "call1", progress: progress("b", { index: 1, toolCount: 3 }) });
    const list = reg.list();
    expect(list.map((s) => [s.id, s.status, s.task, s.assignment])).toEqual([["a", "running", "TA", "A"], ["b", "running", "TB", "B"]]);
    expect(list[1]!.progress!.toolCount).toBe(3);
    reg.report(life("a", "failed"));
    expect(reg.list().map((s) => s.id)).toEqual(["b"]);
    // Progress of an ended subagent, or of another call's subagent with the same id, is ignored.
    reg.progress({ index: 0, agent: "explore", agentSource: "bundled", task: "TA", parentToolCallId: "call1", progress: progress("a") });
    reg.progress({ index: 1, agent: "explore", agentSource: "bundled", task: "TB", parentToolCallId: "other", progress: progress("b", { toolCount: 9 }) });
    expect(reg.list().map((s) => [s.id, s.progress?.toolCount])).toEqual([["b", 3]]);
  });

  it("resolves session files by subagent id (also after it ended) and only known files", () => {
    const { reg } = registry();
    reg.report(life("a", "started"), { task: "T", assignment: "A" });
    reg.report(life("a", "completed"));
    expect(reg.resolveSessionFile({ subagentId: "a" })).toBe("/s/a.jsonl");
    expect(reg.resolveSessionFile({ sessionFile: "/s/a.jsonl" })).toBe("/s/a.jsonl");
    expect(() => reg.resolveSessionFile({ subagentId: "zz" })).toThrow("Unknown subagent or session file unavailable: zz");
    expect(() => reg.resolveSessionFile({ sessionFile: "/etc/passwd" })).toThrow("Unknown subagent session file");
    expect(() => reg.resolveSessionFile({})).toThrow("get_subagent_messages requires subagentId or sessionFile");
    reg.clear();
    expect(() => reg.resolveSessionFile({ subagentId: "a" })).toThrow("Unknown subagent");
  });

  it("ignores the end of a subagent it never saw start", () => {
    const { reg, out } = registry();
    reg.setSubscription("progress");
    reg.report(life("ghost", "completed"));
    expect(out).toEqual([]);
    expect(() => reg.resolveSessionFile({ subagentId: "ghost" })).toThrow("Unknown subagent");
  });
});

describe("readSubagentTranscript", () => {
  it("reads complete lines from a byte offset, resets past the end, and tolerates a missing file", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "pith-sub-tr-"));
    const f = path.join(dir, "s.jsonl");
    const header = JSON.stringify({ type: "session", id: "x" });
    const msg = JSON.stringify({ type: "message", id: "m1", message: { role: "user", content: "hé", timestamp: 1 } });
    writeFileSync(f, `${header}\n${msg}\n{"type":"mess`);
    const first = await readSubagentTranscript(storage, f);
    expect(first.entries.map((e) => e.type)).toEqual(["session", "message"]);
    expect(first.messages).toEqual([{ role: "user", content: "hé", timestamp: 1 }]);
    expect(first.nextByte).toBe(Buffer.byteLength(`${header}\n${msg}\n`));
    expect(first.reset).toBe(false);
    appendFileSync(f, 'age","message":{"role":"user","content":"2","timestamp":2}}\n');
    const next = await readSubagentTranscript(storage, f, first.nextByte);
    expect(next.fromByte).toBe(first.nextByte);
    expect(next.messages.map((m) => (m as { content: string }).content)).toEqual(["2"]);
    const again = await readSubagentTranscript(storage, f, next.nextByte);
    expect(again).toMatchObject({ entries: [], messages: [], nextByte: next.nextByte, reset: false });
    const past = await readSubagentTranscript(storage, f, 1e9);
    expect(past).toMatchObject({ fromByte: 0, reset: true });
    expect(past.entries).toHaveLength(3);
    expect(await readSubagentTranscript(storage, path.join(dir, "none.jsonl"), 7)).toEqual({ sessionFile: path.join(dir, "none.jsonl"), fromByte: 7, nextByte: 7, reset: false, entries: [], messages: [] });
  });
});
