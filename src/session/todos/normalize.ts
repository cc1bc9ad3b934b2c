// The session's copy of a todo list: only phase id/name/tasks and
// task id/content/status/notes survive; nothing is generated or validated beyond the shape.
import { PithError } from "../../shared/errors.js";
import type { TodoItem, TodoPhase } from "../../shared/types.js";

const PHASE_KEYS = ["id", "name"] as const;
const TASK_KEYS = ["id", "content", "status", "notes"] as const;

function pick<T>(source: Record<string, unknown>, keys: readonly string[], extra?: string): T {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  if (extra !== undefined && source[extra] !== undefined) out[extra] = source[extra];
  return out as T;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Deep-copies `phases` the way `set_todos` does. `details` and unknown keys are dropped, absent
 * keys stay absent, ids and statuses are kept as given. Throws `invalid_request` when `phases`
 * is not an array or a phase has no `tasks` array.
 */
export function normalizeTodoPhases(phases: unknown): TodoPhase[] {
  return copyTodoPhases(phases, false);
}

/** The same copy, optionally keeping each task's `details` (what `todo_write` results carry). */
export function copyTodoPhases(phases: unknown, keepDetails: boolean): TodoPhase[] {
  if (!Array.isArray(phases)) throw new PithError("invalid_request", "set_todos: `phases` must be an array of todo phases");
  return phases.map((phase: unknown, i) => {
    if (!isRecord(phase) || !Array.isArray(phase.tasks)) {
      throw new PithError("invalid_request", `set_todos: \`phases[${i}].tasks\` must be an array of tasks`);
    }
    const copy = pick<TodoPhase>(phase, PHASE_KEYS);
    copy.tasks = phase.tasks.map((task: unknown, j) => {
      // Like the reference: a missing task is an error, any other non-object copies to `{}`.
      if (task === null || task === undefined) {
        throw new PithError("invalid_request", `set_todos: \`phases[${i}].tasks[${j}]\` must be a task object`);
      }
      return pick<TodoItem>(isRecord(task) ? task : {}, TASK_KEYS, keepDetails ? "details" : undefined);
    });
    return copy;
  });
}

/** True for the two statuses that count as done (and are auto-cleared). */
export function isDone(task: TodoItem): boolean {
  return task.status === "completed" || task.status === "abandoned";
}

/** True for the statuses reminders care about. */
export function isOpen(task: TodoItem): task is TodoItem & { status: "pending" | "in_progress" } {
  return task.status === "pending" || task.status === "in_progress";
}
