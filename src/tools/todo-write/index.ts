// `todo_write`: edit the session's todo list through ops (engine §3.9, §9). Keeps no state:
// the list is read and written through the store passed in.
import type { TodoPhase } from "../../shared/types.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import { applyTodoOps } from "./apply-ops.js";
import { formatTodos } from "./format.js";
import { TodoWriteParams, type TodoWriteArgs } from "./params.js";

export type { TodoWriteArgs } from "./params.js";

const TODO_WRITE_DESCRIPTION = `Maintain a structured todo list for multi-step work: phases containing tasks. Send a list of ops, applied in order:
- {op:"replace", phases:[{name, tasks:[{content, status?, details?, notes?}]}]} replaces the whole list (ids restart at phase-1 / task-1)
- {op:"add_phase", name, tasks?:[...]} appends a phase
- {op:"add_task", phase:"phase-N", content, details?, notes?} appends a pending task to a phase
- {op:"update", id:"task-N", status?, content?, details?, notes?} changes a task
- {op:"remove_task", id:"task-N"} deletes a task
Statuses: pending, in_progress, completed, abandoned. Keep exactly one task in_progress; mark tasks completed as soon as they are done. Keep content short and put specifics in details.`;

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
      const { phases, errors } = applyTodoOps(opts.todos.get(), args.ops);
      opts.todos.set(phases);
      return { content: [{ type: "text", text: formatTodos(phases, errors) }], details: { phases: structuredClone(phases) } };
    },
  };
}
