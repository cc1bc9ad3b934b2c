// Applying todo_write ops to a todo list: ids, op errors, in-progress normalisation.
import type { TodoItem, TodoPhase } from "../../shared/types.js";
import type { TaskInput, TodoOp } from "./params.js";

function maxSuffix(ids: unknown[], prefix: string): number {
  let max = 0;
  for (const id of ids) {
    // Ids set by a host (set_todos) are kept as sent: only strings can carry a suffix.
    if (typeof id !== "string") continue;
    const m = new RegExp(`^${prefix}-(\\d+)$`).exec(id);
    if (m) max = Math.max(max, Number(m[1]));
  }
  return max;
}

class Ids {
  phase: number;
  task: number;
  constructor(phases: TodoPhase[]) {
    this.phase = maxSuffix(phases.map((p) => p.id), "phase");
    this.task = maxSuffix(phases.flatMap((p) => p.tasks.map((t) => t.id)), "task");
  }
}

function makeTask(ids: Ids, t: TaskInput): TodoItem {
  const task: TodoItem = { id: `task-${++ids.task}`, content: t.content, status: t.status ?? "pending" };
  if (t.notes !== undefined) task.notes = t.notes;
  if (t.details !== undefined) task.details = t.details;
  return task;
}

function makePhase(ids: Ids, name: string, tasks: TaskInput[] = []): TodoPhase {
  return { id: `phase-${++ids.phase}`, name, tasks: tasks.map((t) => makeTask(ids, t)) };
}

function findTask(phases: TodoPhase[], id: string): { phase: TodoPhase; index: number } | undefined {
  for (const phase of phases) {
    const index = phase.tasks.findIndex((t) => t.id === id);
    if (index !== -1) return { phase, index };
  }
  return undefined;
}

function taskNotFound(phases: TodoPhase[], id: string | undefined): string {
  const empty = phases.every((p) => p.tasks.length === 0);
  return `Task "${id}" not found${empty ? " (todo list is empty — was it replaced or not yet created?)" : ""}`;
}

function applyOne(phases: TodoPhase[], ids: Ids, op: TodoOp): TodoPhase[] | string {
  switch (op.op) {
    case "replace": {
      const fresh = new Ids([]);
      const next = (op.phases ?? []).map((p) => makePhase(fresh, p.name, p.tasks));
      Object.assign(ids, fresh);
      return next;
    }
    case "add_phase":
      if (!op.name) return "add_phase needs a name";
      return [...phases, makePhase(ids, op.name, op.tasks)];
    case "add_task": {
      const phase = phases.find((p) => p.id === op.phase);
      if (!phase) return `Phase "${op.phase}" not found`;
      if (!op.content) return "add_task needs content";
      phase.tasks.push(makeTask(ids, { content: op.content, details: op.details, notes: op.notes }));
      return phases;
    }
    case "update": {
      const hit = op.id ? findTask(phases, op.id) : undefined;
      if (!hit) return taskNotFound(phases, op.id);
      const task = hit.phase.tasks[hit.index];
      for (const k of ["content", "status", "notes", "details"] as const) if (op[k] !== undefined) (task as unknown as Record<string, unknown>)[k] = op[k];
      return phases;
    }
    case "remove_task": {
      const hit = op.id ? findTask(phases, op.id) : undefined;
      if (!hit) return taskNotFound(phases, op.id);
      hit.phase.tasks.splice(hit.index, 1);
      return phases;
    }
    default:
      return `Unknown op "${(op as { op: string }).op}"`;
  }
}

/** At most one in_progress task; if none, the first pending one becomes in_progress. */
export function normaliseInProgress(phases: TodoPhase[]): void {
  const tasks = phases.flatMap((p) => p.tasks);
  let seen = false;
  for (const t of tasks) {
    if (t.status !== "in_progress") continue;
    if (seen) t.status = "pending";
    seen = true;
  }
  if (!seen) {
    const first = tasks.find((t) => t.status === "pending");
    if (first) first.status = "in_progress";
  }
}

/** Applies `ops` to a deep copy of `current`. Op errors are collected, not thrown. */
export function applyTodoOps(current: TodoPhase[], ops: TodoOp[]): { phases: TodoPhase[]; errors: string[] } {
  let phases: TodoPhase[] = structuredClone(current);
  const ids = new Ids(phases);
  const errors: string[] = [];
  for (const op of ops) {
    const r = applyOne(phases, ids, op);
    if (typeof r === "string") errors.push(r);
    else phases = r;
  }
  normaliseInProgress(phases);
  return { phases, errors };
}
