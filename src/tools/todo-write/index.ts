// `todo_write`: edit the session's todo list through ops (engine §3.9, §9). Keeps no state:
// the list is read and written through the store passed in.
import type { TodoPhase } from "../../shared/types.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import { applyTodoOps } from "./apply-ops.js";
import { formatTodos } from "./format.js";
import { TodoWriteParams, type TodoWriteArgs } from "./params.js";

export type { TodoWriteArgs } from "./params.js";

const TODO_WRITE_DESCRIPTION = `Keep a todo list of phases and tasks for multi-step work. ops apply in order: replace (the whole list; ids restart at phase-1/task-1), add_phase, add_task (a pending task), update, remove_task. Keep exactly one task in_progress and mark each completed as soon as it is done; keep content short, specifics in details.`;

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
