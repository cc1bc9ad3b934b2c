// The session's in-memory todo list and its auto-clear timers: a task that
// is completed or abandoned is removed `clearDelaySeconds` after it became so, unless its status
// changes back first. The list is never persisted here: it is re-derived from history.
import type { TodoItem, TodoPhase } from "../../shared/types.js";
import { copyTodoPhases, isDone, isOpen } from "./normalize.js";

export interface TodoStateOptions {
  /** `tasks.todoClearDelay`: seconds; 0 = next tick; negative = never. */
  clearDelaySeconds: number;
  /** Called once per task removed by a timer (the session emits `todo_auto_clear`). */
  onAutoClear(): void;
}

type TimerKey = string | TodoItem;
type Timer = ReturnType<typeof setTimeout>;

/** Tasks are tracked by id; a task without a string id (possible via set_todos) by identity. */
function keyOf(task: TodoItem): TimerKey {
  return typeof task.id === "string" ? task.id : task;
}

export class TodoState {
  /** Kept with each task's `details` so `todo_write` can keep them across calls. */
  private phases: TodoPhase[] = [];
  private readonly timers = new Map<TimerKey, Timer>();
  private disposed = false;

  constructor(private readonly opts: TodoStateOptions) {}

  /** The session copy (`get_state.todoPhases`): `details` dropped, a fresh deep copy. */
  get(): TodoPhase[] {
    return copyTodoPhases(this.phases, false);
  }

  /** A fresh deep copy that keeps `details`: what `todo_write` should start from. */
  getWithDetails(): TodoPhase[] {
    return copyTodoPhases(this.phases, true);
  }

  /** Replaces the list (a copy is stored) and (re)schedules auto-clear timers. */
  set(phases: TodoPhase[]): void {
    this.phases = copyTodoPhases(phases, true);
    this.schedule();
  }

  /** Pending and in-progress tasks, in phase/task order (copies without `details`). */
  incompleteTasks(): TodoItem[] {
    return this.get().flatMap((p) => p.tasks.filter(isOpen));
  }

  /** Cancels every timer; later `set` calls schedule nothing. */
  dispose(): void {
    this.disposed = true;
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  private schedule(): void {
    const done = new Set<TimerKey>();
    for (const phase of this.phases) for (const task of phase.tasks) if (isDone(task)) done.add(keyOf(task));
    for (const [key, timer] of this.timers) {
      if (done.has(key)) continue;
      clearTimeout(timer);
      this.timers.delete(key);
    }
    const delay = this.opts.clearDelaySeconds;
    if (this.disposed || !(delay >= 0)) return;
    for (const key of done) {
      if (this.timers.has(key)) continue; // existing timers are not restarted
      const timer = setTimeout(() => this.fire(key), delay * 1000);
      timer.unref?.();
      this.timers.set(key, timer);
    }
  }

  private fire(key: TimerKey): void {
    this.timers.delete(key);
    let removed = 0;
    for (const phase of this.phases) {
      const kept = phase.tasks.filter((t) => !(keyOf(t) === key && isDone(t)));
      removed += phase.tasks.length - kept.length;
      phase.tasks = kept;
    }
    if (removed === 0) return;
    this.phases = this.phases.filter((p) => p.tasks.length > 0);
    for (let i = 0; i < removed; i++) this.opts.onAutoClear();
  }
}
