import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TodoPhase, TodoStatus } from "../../shared/types.js";
import { TodoState } from "./todo-state.js";

function phases(...tasks: Array<[string, TodoStatus]>): TodoPhase[] {
  return [{ id: "phase-1", name: "Work", tasks: tasks.map(([id, status]) => ({ id, content: `do ${id}`, status })) }];
}

describe("TodoState", () => {
  let cleared: number;
  let state: TodoState;
  const make = (clearDelaySeconds: number) => new TodoState({ clearDelaySeconds, onAutoClear: () => void cleared++ });

  beforeEach(() => {
    vi.useFakeTimers();
    cleared = 0;
  });
  afterEach(() => {
    state?.dispose();
    vi.useRealTimers();
  });

  it("stores a copy, strips details from get() but keeps them for getWithDetails()", () => {
    state = make(60);
    const input: TodoPhase[] = [{ id: "phase-1", name: "W", tasks: [{ id: "task-1", content: "c", status: "pending", details: "d" }] }];
    state.set(input);
    input[0].tasks[0].content = "mutated";
    expect(state.get()).toEqual([{ id: "phase-1", name: "W", tasks: [{ id: "task-1", content: "c", status: "pending" }] }]);
    expect(state.getWithDetails()[0].tasks[0].details).toBe("d");
    state.get()[0].tasks.pop();
    expect(state.get()[0].tasks).toHaveLength(1);
  });

  it("incompleteTasks lists pending and in_progress only", () => {
    state = make(-1);
    state.set(phases(["task-1", "completed"], ["task-2", "in_progress"], ["task-3", "abandoned"], ["task-4", "pending"]));
    expect(state.incompleteTasks().map((t) => t.id)).toEqual(["task-2", "task-4"]);
  });

  it("removes done tasks after the delay, once per task, and drops empty phases", () => {
    state = make(60);
    state.set([
      { id: "phase-1", name: "A", tasks: [{ id: "task-1", content: "a", status: "completed" }] },
      { id: "phase-2", name: "B", tasks: [{ id: "task-2", content: "b", status: "abandoned" }, { id: "task-3", content: "c", status: "pending" }] },
    ]);
    vi.advanceTimersByTime(59_999);
    expect(cleared).toBe(0);
    expect(state.get()).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(cleared).toBe(2);
    expect(state.get()).toEqual([{ id: "phase-2", name: "B", tasks: [{ id: "task-3", content: "c", status: "pending" }] }]);
  });

  it("cancels the timer when the status changes back", () => {
    state = make(10);
    state.set(phases(["task-1", "completed"], ["task-2", "pending"]));
    vi.advanceTimersByTime(5_000);
    state.set(phases(["task-1", "in_progress"], ["task-2", "pending"]));
    vi.advanceTimersByTime(60_000);
    expect(cleared).toBe(0);
    expect(state.get()[0].tasks.map((t) => t.id)).toEqual(["task-1", "task-2"]);
  });

  it("does not restart an existing timer when the list is set again", () => {
    state = make(10);
    state.set(phases(["task-1", "completed"], ["task-2", "pending"]));
    vi.advanceTimersByTime(6_000);
    state.set(phases(["task-1", "completed"], ["task-2", "completed"]));
    vi.advanceTimersByTime(4_000);
    expect(cleared).toBe(1);
    expect(state.get()[0].tasks.map((t) => t.id)).toEqual(["task-2"]);
    vi.advanceTimersByTime(6_000);
    expect(cleared).toBe(2);
    expect(state.get()).toEqual([]);
  });

  it("a timer that fires after the task was set back does nothing", () => {
    state = make(10);
    state.set(phases(["task-1", "completed"]));
    state.set(phases(["task-1", "completed"], ["task-2", "pending"]));
    vi.advanceTimersByTime(10_000);
    expect(cleared).toBe(1);
  });

  it("delay 0 clears on the next tick, not synchronously", () => {
    state = make(0);
    state.set(phases(["task-1", "completed"]));
    expect(state.get()[0].tasks).toHaveLength(1);
    vi.advanceTimersByTime(0);
    expect(cleared).toBe(1);
    expect(state.get()).toEqual([]);
  });

  it("negative delay never clears", () => {
    state = make(-1);
    state.set(phases(["task-1", "completed"]));
    vi.advanceTimersByTime(10_000_000);
    expect(cleared).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("dispose cancels pending timers", () => {
    state = make(1);
    state.set(phases(["task-1", "completed"]));
    state.dispose();
    vi.advanceTimersByTime(5_000);
    expect(cleared).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("tracks tasks without ids by identity", () => {
    state = make(1);
    state.set([{ name: "n", tasks: [{ content: "x", status: "completed" }] } as unknown as TodoPhase]);
    vi.advanceTimersByTime(1_000);
    expect(cleared).toBe(1);
    expect(state.get()).toEqual([]);
  });

  it("timers do not keep the process alive", () => {
    state = make(60);
    const spy = vi.spyOn(globalThis, "setTimeout");
    state.set(phases(["task-1", "completed"]));
    const handle = spy.mock.results[0]?.value as { hasRef?: () => boolean } | undefined;
    spy.mockRestore();
    expect(handle?.hasRef?.()).toBe(false);
  });
});
