import { describe, expect, it } from "vitest";
import type { TodoPhase } from "../../shared/types.js";
import { runTool } from "../run-tool.js";
import { makeCtx, textOf } from "../../../test/support/tools.js";
import { createMemoryTodoStore, createTodoWriteTool } from "./index.js";

function setup(initial: TodoPhase[] = []) {
  const store = createMemoryTodoStore(initial);
  const tool = createTodoWriteTool({ todos: store });
  return { store, run: (ops: unknown[]) => runTool(tool, { ops }, makeCtx("/")) };
}

const replaceOp = {
  op: "replace",
  phases: [
    { name: "Explore", tasks: [{ content: "Find config", details: "look in src/config" }, { content: "Read tests" }] },
    { name: "Verify", tasks: [{ content: "Run tests" }] },
  ],
};

describe("todo_write", () => {
  it("assigns phase-N/task-N ids, puts the first pending task in progress, and stores the list", async () => {
    const { store, run } = setup();
    const out = await run([replaceOp]);
    expect(out.isError).toBe(false);
    const phases = (out.result.details as { phases: TodoPhase[] }).phases;
    expect(phases.map((p) => p.id)).toEqual(["phase-1", "phase-2"]);
    expect(phases.flatMap((p) => p.tasks.map((t) => `${t.id}:${t.status}`))).toEqual(["task-1:in_progress", "task-2:pending", "task-3:pending"]);
    expect(store.get()).toEqual(phases);
    expect(textOf(out.result)).toBe(
      [
        "Remaining items (3):",
        "  - task-1 Find config [in_progress] (Explore)",
        "      look in src/config",
        "  - task-2 Read tests [pending] (Explore)",
        "  - task-3 Run tests [pending] (Verify)",
        'Phase 1/2 "Explore" — 0/2 tasks complete',
        "",
        "Explore:",
        "  → task-1 Find config",
        "  ○ task-2 Read tests",
        "",
        "Verify:",
        "  ○ task-3 Run tests",
      ].join("\n"),
    );
  });
  it("continues ids from the current list and applies add/update/remove in order", async () => {
    const { run } = setup();
    await run([replaceOp]);
    const out = await run([
      { op: "add_phase", name: "Ship", tasks: [{ content: "Tag" }] },
      { op: "add_task", phase: "phase-1", content: "Note findings" },
      { op: "update", id: "task-1", status: "completed" },
      { op: "remove_task", id: "task-3" },
    ]);
    const phases = (out.result.details as { phases: TodoPhase[] }).phases;
    expect(phases.map((p) => p.id)).toEqual(["phase-1", "phase-2", "phase-3"]);
    expect(phases[0].tasks.map((t) => `${t.id}:${t.status}`)).toEqual(["task-1:completed", "task-2:in_progress", "task-5:pending"]);
    expect(phases[1].tasks).toEqual([]);
    expect(phases[2].tasks[0].id).toBe("task-4");
  });
  it("keeps at most one task in progress", async () => {
    const { run } = setup();
    const out = await run([{ op: "replace", phases: [{ name: "P", tasks: [{ content: "a", status: "in_progress" }, { content: "b", status: "in_progress" }] }] }]);
    const tasks = (out.result.details as { phases: TodoPhase[] }).phases[0].tasks;
    expect(tasks.map((t) => t.status)).toEqual(["in_progress", "pending"]);
  });
  it("lists op errors without failing the call", async () => {
    const { run } = setup();
    const out = await run([{ op: "update", id: "task-9", status: "completed" }, { op: "add_task", phase: "phase-7", content: "x" }]);
    expect(out.isError).toBe(false);
    expect(textOf(out.result).split("\n")[0]).toBe('Errors: Task "task-9" not found (todo list is empty — was it replaced or not yet created?); Phase "phase-7" not found');
  });
  it("says when the list is cleared and when everything is done", async () => {
    const { run } = setup();
    expect(textOf((await run([{ op: "replace", phases: [] }])).result)).toBe("Todo list cleared.");
    await run([{ op: "replace", phases: [{ name: "P", tasks: [{ content: "a" }] }] }]);
    expect(textOf((await run([{ op: "update", id: "task-1", status: "completed" }])).result)).toBe("Remaining items: none.\n\nP:\n  ✓ task-1 a");
  });
  it("rejects an unknown op or status by validation", async () => {
    const { run } = setup();
    const out = await run([{ op: "explode" }]);
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toContain("  - ops.0.op:");
  });
  it("does not mutate the list it was given", async () => {
    const initial: TodoPhase[] = [{ id: "phase-1", name: "P", tasks: [{ id: "task-1", content: "a", status: "pending" }] }];
    const { run } = setup(initial);
    await run([{ op: "update", id: "task-1", status: "completed" }]);
    expect(initial[0].tasks[0].status).toBe("pending");
  });
  it("formats a list a host stored with set_todos, whatever its fields hold", async () => {
    // set_todos keeps ids, names and statuses as sent: objects whose toString is not a function
    // used to throw "Cannot convert object to primitive value" here.
    const hostile = { toString: 1, valueOf: null } as unknown as string;
    const { run } = setup([
      { id: hostile, name: hostile, tasks: [{ id: hostile, content: hostile, status: hostile as never }, { id: "task-2", content: "c", status: "pending" }] },
    ]);
    const out = await run([{ op: "update", id: "task-2", status: "completed" }]);
    expect(out.isError).toBe(false);
    const text = textOf(out.result);
    expect(text).toContain('{"toString":1,"valueOf":null}:');
    expect(text).toContain('  [{"toString":1,"valueOf":null}] {"toString":1,"valueOf":null} {"toString":1,"valueOf":null}');
    expect(text).toContain("  ✓ task-2 c");
  });
});
