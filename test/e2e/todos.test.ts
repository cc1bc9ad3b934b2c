// Todos end to end: set_todos normalisation, todo_write from
// the model, todo reminders after an unfinished stop, auto-clear timers, and the todo list
// surviving a restart through the session file.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type FakeRequest } from "../support/fake-llm-server.js";
import { Pith, trackPiths, useFakeLlm, fakeModelsJson, tempDir, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();

async function start(opts: { pithHome?: string; args?: string[] } = {}): Promise<Pith> {
  const p = await Pith.start({
    pithHome: opts.pithHome,
    modelsJson: fakeModelsJson(llm.url),
    args: ["--provider", "fake-openai", "--model", "fake-gpt", ...(opts.args ?? [])],
  });
  open.push(p);
  return p;
}

/** Waits until `n` frames of `type` arrived at or after `from`. */
async function waitCount(p: Pith, type: string, n: number, from: number): Promise<void> {
  let at = from;
  for (let k = 0; k < n; k++) {
    const f = await p.waitFor((x) => x.type === type, 5000, at);
    at = p.frames.indexOf(f) + 1;
  }
}

/** The model calls the fake received (live discovery also sends GET /models). */
const calls = () => llm.requests.filter((r) => r.method === "POST");
const body = (r: FakeRequest | undefined) => JSON.stringify(r?.body ?? null);
const todoWrite = (id: string, ops: unknown[]) => ({ toolCalls: [{ id, name: "todo_write", arguments: { ops } }] });

const PLAN = [
  {
    id: "phase-1",
    name: "Evaluation",
    tasks: [
      { id: "task-1", content: "Map the read tool surface", status: "in_progress", details: "dropped", extra: 1 },
      { id: "task-2", content: "Exercise edit operations", status: "pending", notes: "use fixtures" },
      { id: "task-3", content: "Already done", status: "completed" },
    ],
    color: "red",
  },
];
const PLAN_NORMALISED = [
  {
    id: "phase-1",
    name: "Evaluation",
    tasks: [
      { id: "task-1", content: "Map the read tool surface", status: "in_progress" },
      { id: "task-2", content: "Exercise edit operations", status: "pending", notes: "use fixtures" },
      { id: "task-3", content: "Already done", status: "completed" },
    ],
  },
];

describe("set_todos", () => {
  it("returns exactly {todoPhases} with details and unknown keys dropped; get_state agrees", async () => {
    const p = await start();
    const res = await p.request({ id: "req_2", type: "set_todos", phases: PLAN });
    expect(res).toEqual({ id: "req_2", type: "response", command: "set_todos", success: true, data: { todoPhases: PLAN_NORMALISED } });
    const state = await p.request({ type: "get_state" });
    expect(state.data.todoPhases).toEqual(PLAN_NORMALISED);
    // Nothing generated or normalised: duplicate ids, two in-progress tasks and empty phases are kept.
    const loose = [
      { id: "p", name: "Dup", tasks: [{ id: "t", content: "x", status: "in_progress" }, { id: "t", content: "y", status: "in_progress" }] },
      { id: "p", name: "Empty", tasks: [] },
    ];
    expect((await p.request({ type: "set_todos", phases: loose })).data).toEqual({ todoPhases: loose });
    await p.request({ type: "set_todos", phases: [] });
    expect((await p.request({ type: "get_state" })).data.todoPhases).toEqual([]);
  });

  it("rejects phases that are not an array, or a phase without tasks, and keeps the old list", async () => {
    const p = await start();
    await p.request({ type: "set_todos", phases: PLAN });
    const notArray = await p.request({ type: "set_todos", phases: "nope" });
    expect(notArray.success).toBe(false);
    expect(notArray.command).toBe("set_todos");
    expect(typeof notArray.error).toBe("string");
    const noTasks = await p.request({ type: "set_todos", phases: [{ id: "phase-1", name: "x" }] });
    expect(noTasks.success).toBe(false);
    expect((await p.request({ type: "get_state" })).data.todoPhases).toEqual(PLAN_NORMALISED);
  });
});

describe("todo_write and reminders", () => {
  it("the model's todo_write updates get_state.todoPhases; ids assigned, details kept only in the tool result", async () => {
    const p = await start();
    const before = calls().length;
    llm.enqueue(
      todoWrite("call_t1", [{ op: "replace", phases: [{ name: "Explore", tasks: [{ content: "Locate config", details: "look in src/cli" }, { content: "Write tests" }] }] }]),
      todoWrite("call_t2", [{ op: "update", id: "task-1", status: "completed" }, { op: "update", id: "task-2", status: "abandoned" }]),
      { text: "All done." },
    );
    const frames = await p.promptAndWait("Plan the work");
    const ends = frames.filter((f) => f.type === "tool_execution_end");
    expect(ends.map((f) => [f.toolName, f.isError])).toEqual([["todo_write", false], ["todo_write", false]]);
    // The tool's own snapshot keeps details; the first pending task was made in_progress.
    expect(ends[0].result.details.phases).toEqual([
      {
        id: "phase-1",
        name: "Explore",
        tasks: [
          { id: "task-1", content: "Locate config", status: "in_progress", details: "look in src/cli" },
          { id: "task-2", content: "Write tests", status: "pending" },
        ],
      },
    ]);
    // The model saw the rendered list in the next request.
    expect(body(calls()[before + 1])).toContain("Locate config");
    const state = await p.request({ type: "get_state" });
    expect(state.data.todoPhases).toEqual([
      {
        id: "phase-1",
        name: "Explore",
        tasks: [
          { id: "task-1", content: "Locate config", status: "completed" },
          { id: "task-2", content: "Write tests", status: "abandoned" },
        ],
      },
    ]);
    // No open tasks: no reminder, exactly three model calls.
    expect(p.events("todo_reminder")).toHaveLength(0);
    expect(calls().length - before).toBe(3);
  });

  it("reminds after an unfinished stop, at most 3 times per prompt; the reminder reaches the next request", async () => {
    const p = await start();
    await p.request({ type: "set_todos", phases: PLAN });
    const before = calls().length;
    llm.enqueue({ text: "Stopping here." }, { text: "Still stopping." }, { text: "Nope." }, { text: "Final stop." });
    const frames = await p.promptAndWait("Work through the plan");
    const reminders = frames.filter((f) => f.type === "todo_reminder");
    const openTodos = [
      { id: "task-1", content: "Map the read tool surface", status: "in_progress" },
      { id: "task-2", content: "Exercise edit operations", status: "pending" },
    ];
    expect(reminders).toEqual([1, 2, 3].map((attempt) => ({ type: "todo_reminder", todos: openTodos, attempt, maxAttempts: 3 })));
    // Four model calls: the prompt, then one per reminder; the fourth stop is not reminded.
    expect(calls().length - before).toBe(4);
    for (const k of [1, 2, 3]) {
      const sent = body(calls()[before + k]);
      expect(sent).toContain("<system-reminder>");
      expect(sent).toContain(`(Reminder ${k}/3)`);
      expect(sent).toContain("Exercise edit operations");
      expect(sent).not.toContain("Already done");
    }
    expect(body(calls()[before])).not.toContain("<system-reminder>");
    // Hidden: no message events for the reminder, and each reminder starts a new run.
    const roles = frames.filter((f) => f.type === "message_start").map((f) => f.message.role);
    expect(roles).toEqual(["user", "assistant", "assistant", "assistant", "assistant"]);
    expect(frames.filter((f) => f.type === "agent_start")).toHaveLength(4);
    const idxFirstReminder = frames.indexOf(reminders[0]);
    expect(frames.findIndex((f) => f.type === "agent_end")).toBeLessThan(idxFirstReminder);
  });

  it("the counter resets on a new prompt, and reminding stops once no task is open", async () => {
    const p = await start();
    await p.request({ type: "set_todos", phases: PLAN });
    llm.enqueue({ text: "a" }, { text: "b" }, { text: "c" }, { text: "d" });
    await p.promptAndWait("first");
    const from = p.frames.length;
    const before = calls().length;
    llm.enqueue(
      { text: "Stopping again." },
      todoWrite("call_done", [{ op: "update", id: "task-1", status: "completed" }, { op: "update", id: "task-2", status: "completed" }]),
      { text: "Everything is complete." },
    );
    await p.promptAndWait("second");
    const reminders = p.events("todo_reminder", from);
    expect(reminders.map((r: Frame) => r.attempt)).toEqual([1]);
    expect(calls().length - before).toBe(3);
  });
});

describe("auto-clear and persistence", () => {
  it("emits todo_auto_clear per removed task with tasks.todoClearDelay 0, even when idle", async () => {
    const home = tempDir("pith-home-");
    writeFileSync(path.join(home, "settings.json"), JSON.stringify({ tasks: { todoClearDelay: 0 } }));
    const p = await start({ pithHome: home });
    const from = p.frames.length;
    const res = await p.request({
      type: "set_todos",
      phases: [
        { id: "phase-1", name: "One", tasks: [{ id: "task-1", content: "done", status: "completed" }, { id: "task-2", content: "open", status: "pending" }] },
        { id: "phase-2", name: "Two", tasks: [{ id: "task-3", content: "dropped", status: "abandoned" }] },
      ],
    });
    // The response is the stored copy, before any timer ran.
    expect(res.data.todoPhases.flatMap((ph: Frame) => ph.tasks.map((t: Frame) => t.id))).toEqual(["task-1", "task-2", "task-3"]);
    await waitCount(p, "todo_auto_clear", 2, from);
    const clears = p.events("todo_auto_clear", from);
    expect(clears).toHaveLength(2);
    expect(clears[0]).toEqual({ type: "todo_auto_clear" });
    const state = await p.request({ type: "get_state" });
    expect(state.data.todoPhases).toEqual([{ id: "phase-1", name: "One", tasks: [{ id: "task-2", content: "open", status: "pending" }] }]);
  });

  it("with the default delay nothing is cleared right away", async () => {
    const p = await start();
    const from = p.frames.length;
    await p.request({ type: "set_todos", phases: PLAN });
    // A full command round trip after the set: a 0-delay timer would have fired by now.
    await new Promise((r) => setTimeout(r, 50));
    expect((await p.request({ type: "get_state" })).data.todoPhases).toEqual(PLAN_NORMALISED);
    expect(p.events("todo_auto_clear", from)).toHaveLength(0);
  });

  it("a restart with --session re-derives todos from the last todo_write (done tasks dropped, set_todos not persisted)", async () => {
    const home = tempDir("pith-home-");
    const p1 = await start({ pithHome: home });
    llm.enqueue(
      todoWrite("call_r", [
        { op: "replace", phases: [{ name: "Build", tasks: [{ content: "Parser", status: "completed" }, { content: "Printer", details: "secret detail" }] }, { name: "Ship", tasks: [{ content: "Release" }] }] },
      ]),
      { text: "paused" },
      { text: "paused" },
      { text: "paused" },
      { text: "paused" },
    );
    await p1.promptAndWait("Build it");
    const state1 = (await p1.request({ type: "get_state" })).data;
    expect(state1.todoPhases[0].tasks.map((t: Frame) => t.status)).toEqual(["completed", "in_progress"]);
    // A host-set list lives in memory only.
    await p1.request({ type: "set_todos", phases: [{ id: "x", name: "Host plan", tasks: [] }] });
    const sessionFile: string = state1.sessionFile;
    expect(typeof sessionFile).toBe("string");
    expect(await p1.close()).toBe(0);

    const p2 = await start({ pithHome: home, args: ["--session", sessionFile] });
    const state2 = (await p2.request({ type: "get_state" })).data;
    expect(state2.sessionFile).toBe(sessionFile);
    expect(state2.todoPhases).toEqual([
      { id: "phase-1", name: "Build", tasks: [{ id: "task-2", content: "Printer", status: "in_progress" }] },
      { id: "phase-2", name: "Ship", tasks: [{ id: "task-3", content: "Release", status: "pending" }] },
    ]);
    // Reminders are hidden and in-memory only: not in the reloaded conversation.
    const msgs = (await p2.request({ type: "get_messages" })).data.messages as Frame[];
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "assistant", "assistant", "assistant"]);
  });
});
