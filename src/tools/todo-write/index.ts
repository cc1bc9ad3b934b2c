// `todo_write`: edit the session's todo list through ops. Keeps no state:
// the list is read and written through the store passed in.
import type { TodoPhase } from "../../shared/types.js";
import { jsonSchema } from "../schema.js";
import type { Tool } from "../types.js";
import { applyTodoOps } from "./apply-ops.js";
import { formatTodos } from "./format.js";
import { validateArgs, validationErrorText } from "../validate-args.js";
import { TODO_WRITE_ADVERTISED, TodoWriteParams, type TodoWriteArgs } from "./params.js";

const FULL_SCHEMA = jsonSchema(TodoWriteParams);

export type { TodoWriteArgs } from "./params.js";

const TODO_WRITE_DESCRIPTION = `Todo list (phases of tasks) for multi-step work; ops apply in order. Keep one task in_progress; mark each completed when done.`;

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
    parameters: TODO_WRITE_ADVERTISED,
    // changes only the session's todo list
    effect: "session",
    validatesOwnArguments: true,
    concurrency: "exclusive",
    source: "builtin",
    async execute(raw) {
      const v = validateArgs(FULL_SCHEMA, raw);
      if (!v.ok) throw new Error(validationErrorText("todo_write", v.errors, raw));
      const args = v.value as TodoWriteArgs;
      const { phases, errors } = applyTodoOps(opts.todos.get(), args.ops);
      opts.todos.set(phases);
      return { content: [{ type: "text", text: formatTodos(phases, errors) }], details: { phases: structuredClone(phases) } };
    },
  };
}
