// `todo_write`: edit the session's todo list through ops (engine §3.9, §9). Keeps no state:
// the list is read and written through the store passed in.
import { Type, type Static } from "typebox";
import type { TodoPhase } from "../../shared/types.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import { applyTodoOps, type TodoOp } from "./apply-ops.js";
import { formatTodos } from "./format.js";

const TODO_WRITE_DESCRIPTION = `Maintain a structured todo list for multi-step work: phases containing tasks. Send a list of ops, applied in order:
- {op:"replace", phases:[{name, tasks:[{content, status?, details?, notes?}]}]} replaces the whole list (ids restart at phase-1 / task-1)
- {op:"add_phase", name, tasks?:[...]} appends a phase
- {op:"add_task", phase:"phase-N", content, details?, notes?} appends a pending task to a phase
- {op:"update", id:"task-N", status?, content?, details?, notes?} changes a task
- {op:"remove_task", id:"task-N"} deletes a task
Statuses: pending, in_progress, completed, abandoned. Keep exactly one task in_progress; mark tasks completed as soon as they are done. Keep content short and put specifics in details.`;

const Status = Type.Enum(["pending", "in_progress", "completed", "abandoned"]);
const TaskInput = Type.Object({
  content: Type.String({ description: "Short task label" }),
  status: Type.Optional(Status),
  details: Type.Optional(Type.String({ description: "Implementation specifics" })),
  notes: Type.Optional(Type.String()),
});
const Op = Type.Object({
  op: Type.Enum(["replace", "add_phase", "add_task", "update", "remove_task"]),
  phases: Type.Optional(Type.Array(Type.Object({ name: Type.String(), tasks: Type.Optional(Type.Array(TaskInput)) }), { description: "replace: the new list" })),
  name: Type.Optional(Type.String({ description: "add_phase: phase name" })),
  tasks: Type.Optional(Type.Array(TaskInput, { description: "add_phase: its tasks" })),
  phase: Type.Optional(Type.String({ description: "add_task: phase id, e.g. phase-2" })),
  id: Type.Optional(Type.String({ description: "update/remove_task: task id, e.g. task-3" })),
  content: Type.Optional(Type.String()),
  status: Type.Optional(Status),
  details: Type.Optional(Type.String()),
  notes: Type.Optional(Type.String()),
});
const TodoWriteParams = Type.Object({ ops: Type.Array(Op, { minItems: 1 }) });
export type TodoWriteArgs = Static<typeof TodoWriteParams>;

/** Where the session keeps its todo list. */
export interface TodoStore {
  get(): TodoPhase[];
  set(phases: TodoPhase[]): void;
}

/** A store that keeps the list in memory (used when the session passes none). */
export function createMemoryTodoStore(initial: TodoPhase[] = []): TodoStore {
  let phases = initial;
  return { get: () => phases, set: (p) => (phases = p) };
}

export function createTodoWriteTool(opts: { todos: TodoStore }): Tool<TodoWriteArgs> {
  return {
    name: "todo_write",
    label: "Todo",
    description: TODO_WRITE_DESCRIPTION,
    parameters: jsonSchema(TodoWriteParams),
    concurrency: "exclusive",
    source: "builtin",
    async execute(args) {
      const { phases, errors } = applyTodoOps(opts.todos.get(), args.ops as TodoOp[]);
      opts.todos.set(phases);
      return { content: [{ type: "text", text: formatTodos(phases, errors) }], details: { phases: structuredClone(phases) } };
    },
  };
}
