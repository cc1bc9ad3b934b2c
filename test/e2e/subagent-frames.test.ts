// oh-my-pi 18.3.4's subagent frames and commands end to end against the scripted SSE server:
// subagent_lifecycle / subagent_progress / subagent_event at each subscription level,
// get_subagents while subagents run, get_subagent_messages read incrementally, and the task
// result's bound on a runaway answer.
import { readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { OutboundFrameSchema, RESPONSE_DATA_SCHEMAS, describeMismatch } from "../../src/protocol/index.js";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";
import { endOf, firstUserText, forParent, forSub, resultText, taskCall } from "./task-replies.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(): Promise<Pith> {
  const pithHome = tempDir("pith-home-");
  const cwd = tempDir("pith-cwd-");
  writeFileSync(path.join(cwd, "notes.txt"), "NOTE-CONTENT\n");
  const p = await Pith.start({ pithHome, cwd, modelsJson: fakeModelsJson(llm.url), args: ["--provider", "fake-anthropic", "--model", "fake-claude"] });
  open.push(p);
  return p;
}

const explore = (id: string, tasks: Array<[string, string]>, context?: string) => taskCall(id, "explore", tasks, context ? { context } : {});
/** The frame (or response data) matches the published schema: undefined, or what differs. */
const mismatch = (schema: unknown, value: unknown): string | undefined => describeMismatch(schema, value);
const subFrames = (p: Pith, from: number): Frame[] => p.frames.slice(from).filter((f) => typeof f.type === "string" && f.type.startsWith("subagent_"));

describe("oh-my-pi's subagent frames and commands", () => {
  it("progress: lifecycle and progress frames in order, no subagent_event; get_subagent_messages reads each transcript", async () => {
    const p = await start();
    const P = "two explorers";
    llm.enqueue(
      forParent(P, explore("t1", [["a", "ASSIGN-A read the notes"], ["b", "ASSIGN-B"]], "CTX")),
      forSub("ASSIGN-A", { toolCalls: [{ id: "r1", name: "read", arguments: { path: "notes.txt" } }], usage: { input: 50, output: 5 } }),
      forSub("ASSIGN-A", { text: "alpha found NOTE", usage: { input: 70, output: 7 } }),
      forSub("ASSIGN-B", { text: "beta answer", usage: { input: 30, output: 3 } }),
      forParent(P, { text: "done" }),
    );
    expect((await p.request({ type: "set_subagent_subscription", level: "progress" })).data).toEqual({ level: "progress" });
    const from = p.frames.length;
    await p.promptAndWait(P, {}, 60_000);
    const frames = subFrames(p, from);
    for (const f of frames) expect(mismatch(OutboundFrameSchema, f)).toBeUndefined();
    expect(frames.filter((f) => f.type === "subagent_event")).toEqual([]);
    for (const id of ["a", "b"]) {
      const mine = frames.filter((f) => (f.type === "subagent_lifecycle" ? f.payload.id : f.payload.progress.id) === id);
      // started, then progress frames only, then the final status.
      expect(mine[0]).toMatchObject({ type: "subagent_lifecycle", payload: { id, agent: "explore", agentSource: "bundled", status: "started", parentToolCallId: "t1", description: `job ${id}` } });
      expect(mine.at(-1)).toMatchObject({ type: "subagent_lifecycle", payload: { id, status: "completed" } });
      expect(mine.slice(1, -1).every((f) => f.type === "subagent_progress")).toBe(true);
      expect(mine.at(-2)!.payload.progress.status).toBe("completed");
      expect(mine[0].payload.sessionFile).toMatch(/\.jsonl$/);
    }
    const progA = frames.filter((f) => f.type === "subagent_progress" && f.payload.progress.id === "a");
    expect(progA[0].payload).toMatchObject({ index: 0, agent: "explore", agentSource: "bundled", task: "CTX\n\nASSIGN-A read the notes", assignment: "ASSIGN-A read the notes", parentToolCallId: "t1" });
    expect(progA.some((f) => f.payload.progress.currentTool === "read" && f.payload.progress.currentToolArgs === "notes.txt")).toBe(true);
    expect(progA.at(-1)!.payload.progress).toMatchObject({
      index: 0,
      id: "a",
      status: "completed",
      toolCount: 1,
      requests: 2,
      tokens: 132,
      recentTools: [{ tool: "read", args: "notes.txt" }],
      recentOutput: ["alpha found NOTE"],
      description: "job a",
      resolvedModel: "fake-anthropic/fake-claude",
    });
    expect((await p.request({ type: "get_subagents" })).data).toEqual({ subagents: [] });

    // The transcript of a finished subagent, by id: what the fake server saw, from the session file.
    const fileA = frames.find((f) => f.type === "subagent_lifecycle" && f.payload.id === "a")!.payload.sessionFile as string;
    const r = await p.request({ type: "get_subagent_messages", subagentId: "a" });
    expect(r.success).toBe(true);
    expect(r.data).toMatchObject({ sessionFile: fileA, fromByte: 0, reset: false, nextByte: statSync(fileA).size });
    expect(mismatch(RESPONSE_DATA_SCHEMAS.get_subagent_messages, r.data)).toBeUndefined();
    expect(r.data.entries[0]).toMatchObject({ type: "session", parentSession: expect.any(String) });
    expect(r.data.messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
    expect(JSON.stringify(r.data.messages[2])).toContain("NOTE-CONTENT");
    const secondRequestOfA = llm.requests.filter((q) => firstUserText(q).includes("ASSIGN-A"))[1]!;
    expect(JSON.stringify(secondRequestOfA.body)).toContain("NOTE-CONTENT");
    // Reading on from nextByte: nothing new; past the end: from 0 again with reset; by file.
    expect((await p.request({ type: "get_subagent_messages", subagentId: "a", fromByte: r.data.nextByte })).data).toMatchObject({ entries: [], messages: [], nextByte: r.data.nextByte });
    expect((await p.request({ type: "get_subagent_messages", subagentId: "a", fromByte: 1e12 })).data).toMatchObject({ fromByte: 0, reset: true, nextByte: r.data.nextByte });
    const byFile = await p.request({ type: "get_subagent_messages", sessionFile: fileA, fromByte: 0 });
    expect(byFile.data.messages).toEqual(r.data.messages);
    const b = await p.request({ type: "get_subagent_messages", subagentId: "b" });
    expect(b.data.messages.map((m: Frame) => m.role)).toEqual(["user", "assistant"]);
    // Unknown ids and files outside this session's subagents are refused.
    const unknown = await p.request({ type: "get_subagent_messages", subagentId: "zz" });
    expect(unknown).toMatchObject({ success: false, error: expect.stringContaining("Unknown subagent or session file unavailable: zz") });
    const stranger = await p.request({ type: "get_subagent_messages", sessionFile: "/etc/passwd" });
    expect(stranger).toMatchObject({ success: false, error: expect.stringContaining("Unknown subagent session file") });
    expect((await p.request({ type: "get_subagent_messages" })).success).toBe(false);
  }, 90_000);

  it("events: each subagent session event as subagent_event; off again: no subagent frames", async () => {
    const p = await start();
    llm.enqueue(
      forParent("with events", explore("t2", [["x", "ASSIGN-X"]])),
      forSub("ASSIGN-X", { toolCalls: [{ id: "r2", name: "ls", arguments: { path: "." } }] }),
      forSub("ASSIGN-X", { text: "x answer" }),
      forParent("with events", { text: "ok" }),
    );
    await p.request({ type: "set_subagent_subscription", level: "events" });
    let from = p.frames.length;
    await p.promptAndWait("with events", {}, 60_000);
    const frames = subFrames(p, from);
    for (const f of frames) expect(mismatch(OutboundFrameSchema, f)).toBeUndefined();
    const events = frames.filter((f) => f.type === "subagent_event");
    expect(events.every((f) => f.payload.id === "x" && Object.keys(f.payload).sort().join() === "event,id")).toBe(true);
    const types = events.map((f) => f.payload.event.type);
    for (const t of ["agent_start", "turn_start", "message_start", "message_update", "message_end", "tool_execution_start", "tool_execution_end", "turn_end", "agent_end"]) expect(types).toContain(t);
    expect(types.indexOf("agent_start")).toBeLessThan(types.indexOf("tool_execution_start"));
    expect(events.find((f) => f.payload.event.type === "tool_execution_start")!.payload.event).toMatchObject({ toolName: "ls", toolCallId: "r2" });
    expect(frames.some((f) => f.type === "subagent_progress")).toBe(true);
    expect(frames.filter((f) => f.type === "subagent_lifecycle").map((f) => f.payload.status)).toEqual(["started", "completed"]);
    // The subagent's events are not written as the parent's own events.
    expect(p.frames.slice(from).filter((f) => f.type === "tool_execution_start").map((f) => f.toolName)).toEqual(["task"]);

    expect((await p.request({ type: "set_subagent_subscription", level: "off" })).data).toEqual({ level: "off" });
    // The parent's requests now start with the first prompt; unmatched replies are served in order.
    llm.enqueue(explore("t3", [["y", "ASSIGN-Y"]]), forSub("ASSIGN-Y", { text: "y answer" }), { text: "ok" });
    from = p.frames.length;
    const quiet = await p.promptAndWait("quiet", {}, 60_000);
    expect(resultText(endOf(quiet, "t3"))).toContain("## Task y: job y\ny answer");
    expect(subFrames(p, from)).toEqual([]);
  }, 90_000);

  it("get_subagents and get_subagent_messages while a subagent runs", async () => {
    const p = await start();
    llm.enqueue(
      forParent("hold", explore("t4", [["h", "ASSIGN-H"]])),
      forSub("ASSIGN-H", { toolCalls: [{ id: "r3", name: "read", arguments: { path: "notes.txt" } }], usage: { input: 40, output: 4 } }),
      forSub("ASSIGN-H", { hang: true }),
    );
    const before = llm.requests.length;
    const from = p.frames.length;
    expect((await p.request({ type: "prompt", message: "hold" })).success).toBe(true);
    await llm.waitForRequests(before + 3, 30_000);
    // The subagent waits on its second request: its first turn, its tool result and the progress
    // of both were recorded before that request left.
    const listed = (await p.request({ type: "get_subagents" })).data;
    expect(mismatch(RESPONSE_DATA_SCHEMAS.get_subagents, listed)).toBeUndefined();
    const snap: Frame = listed.subagents[0];
    expect(snap).toMatchObject({ id: "h", index: 0, agent: "explore", agentSource: "bundled", status: "running", task: "ASSIGN-H", assignment: "ASSIGN-H", parentToolCallId: "t4" });
    expect(snap.progress).toMatchObject({ id: "h", status: "running", toolCount: 1, requests: 1, recentTools: [{ tool: "read", args: "notes.txt" }] });
    expect(snap.sessionFile).toMatch(/\.jsonl$/);
    const now = await p.request({ type: "get_subagent_messages", subagentId: "h" });
    expect(now.data.messages.map((m: Frame) => m.role)).toEqual(["user", "assistant", "toolResult"]);
    expect((await p.request({ type: "abort" })).success).toBe(true);
    await p.waitIdle(30_000, from);
    // Reading on from where we stopped returns only what was written since.
    const later = await p.request({ type: "get_subagent_messages", subagentId: "h", fromByte: now.data.nextByte });
    expect(later.data.fromByte).toBe(now.data.nextByte);
    expect(later.data.entries.length).toBeGreaterThan(0);
    expect(later.data.messages.every((m: Frame) => m.role === "assistant")).toBe(true);
    expect(later.data.nextByte).toBe(statSync(snap.sessionFile).size);
  }, 90_000);

  it("a runaway answer is bounded in the task result; the whole answer stays in the subagent's session file", async () => {
    const p = await start();
    const huge = Array.from({ length: 6000 }, (_, i) => `row ${i} ${"z".repeat(40)}`).join("\n");
    llm.enqueue(forParent("big", explore("t5", [["big", "ASSIGN-BIG"]])), forSub("ASSIGN-BIG", { text: huge }), forParent("big", { text: "ok" }));
    const frames = await p.promptAndWait("big", {}, 60_000);
    const end = endOf(frames, "t5");
    const sessionFile = end.result.details.subagents[0].sessionFile as string;
    expect(end.result.details.subagents[0].truncated).toBe(true);
    const text = resultText(end);
    expect(text).toContain(`[Answer truncated: showing the last `);
    expect(text).toContain(`of 6000 lines (50.0KB limit); the full answer is the last assistant message in ${sessionFile}]`);
    expect(text).toContain(`row 5999 ${"z".repeat(40)}`);
    expect(text).not.toContain("row 0 ");
    // What the parent model received is the bounded text.
    const last = llm.requests.at(-1)!;
    const body = JSON.stringify(last.body);
    expect(body).toContain("[Answer truncated");
    expect(body).not.toContain("row 0 ");
    expect(last.bytes!).toBeLessThan(80 * 1024);
    // The subagent's session file holds the whole answer.
    expect(readFileSync(sessionFile, "utf8")).toContain("row 0 ");
  }, 90_000);
});
