import { describe, expect, it } from "vitest";
import type { TodoPhase } from "../../shared/types.js";
import { TodoReminder } from "./reminder.js";
import { assistant } from "../../../test/support/todos.js";

const open: TodoPhase[] = [
  { id: "phase-1", name: "Explore", tasks: [{ id: "task-1", content: "Locate loader", status: "completed" }, { id: "task-2", content: "Read config", status: "in_progress", notes: "n" }] },
  { id: "phase-2", name: "Verify", tasks: [{ id: "task-3", content: "Run tests", status: "pending" }, { id: "task-4", content: "Skip", status: "abandoned" }] },
];
const allDone: TodoPhase[] = [{ id: "phase-1", name: "Explore", tasks: [{ id: "task-1", content: "x", status: "completed" }] }];

describe("TodoReminder", () => {
  it("builds the event and a hidden developer message listing open tasks per phase", () => {
    const r = new TodoReminder({ enabled: true, max: 3 });
    const out = r.next(assistant("done"), open);
    expect(out?.event).toEqual({
      type: "todo_reminder",
      todos: [
        { id: "task-2", content: "Read config", status: "in_progress" },
        { id: "task-3", content: "Run tests", status: "pending" },
      ],
      attempt: 1,
      maxAttempts: 3,
    });
    expect(out?.message.role).toBe("developer");
    const text = out?.message.content as string;
    expect(text).toMatch(/^<system-reminder>/);
    expect(text).toContain("2 todo items are still open");
    expect(text).toMatch(/Explore:\n {2}- task-2 Read config \[in_progress\]\nVerify:\n {2}- task-3 Run tests \[pending\]/);
    expect(text).not.toContain("task-1");
    expect(text).not.toContain("task-4");
    expect(text).toContain("(Reminder 1/3)");
  });

  it("stops silently at max and starts again after reset()", () => {
    const r = new TodoReminder({ enabled: true, max: 2 });
    expect(r.next(assistant("a"), open)?.event.attempt).toBe(1);
    expect(r.next(assistant("b"), open)?.event.attempt).toBe(2);
    expect(r.next(assistant("c"), open)).toBeUndefined();
    r.reset();
    const again = r.next(assistant("d"), open);
    expect(again?.event.attempt).toBe(1);
    expect(again?.message.content).toContain("(Reminder 1/2)");
  });

  it("resets the counter when nothing is open", () => {
    const r = new TodoReminder({ enabled: true, max: 2 });
    r.next(assistant("a"), open);
    r.next(assistant("b"), open);
    expect(r.next(assistant("c"), allDone)).toBeUndefined();
    expect(r.next(assistant("d"), open)?.event.attempt).toBe(1);
  });

  it.each([
    ["disabled", new TodoReminder({ enabled: false, max: 3 }), assistant("x")],
    ["max 0", new TodoReminder({ enabled: true, max: 0 }), assistant("x")],
    ["error", new TodoReminder({ enabled: true, max: 3 }), assistant("x", "error")],
    ["aborted", new TodoReminder({ enabled: true, max: 3 }), assistant("x", "aborted")],
    ["tool calls", new TodoReminder({ enabled: true, max: 3 }), assistant("x", "toolUse", true)],
  ])("no reminder when %s", (_label, r, last) => {
    expect(r.next(last, open)).toBeUndefined();
  });

  it("no reminder without open tasks", () => {
    expect(new TodoReminder({ enabled: true, max: 3 }).next(assistant("x"), allDone)).toBeUndefined();
    expect(new TodoReminder({ enabled: true, max: 3 }).next(assistant("x"), [])).toBeUndefined();
  });

  it("uses the singular for one open task", () => {
    const one: TodoPhase[] = [{ id: "phase-1", name: "P", tasks: [{ id: "task-1", content: "x", status: "pending" }] }];
    expect(new TodoReminder({ enabled: true, max: 3 }).next(assistant("x"), one)?.message.content).toContain("1 todo item is still open");
  });
  it("lists tasks a host stored with odd field values without calling their toString", () => {
    const hostile = { toString: 1 } as unknown as string;
    const phases: TodoPhase[] = [{ id: "p", name: hostile, tasks: [{ id: hostile, content: hostile, status: "pending" }] }];
    const text = new TodoReminder({ enabled: true, max: 3 }).next(assistant("done"), phases)?.message.content as string;
    expect(text).toContain('{"toString":1}:\n  - {"toString":1} {"toString":1} [pending]');
  });
});
