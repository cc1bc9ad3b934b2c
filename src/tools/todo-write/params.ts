// The `todo_write` arguments: the schema the model sees and the op types derived from it.
import { Type, type Static } from "typebox";
import { TodoStatusSchema } from "../../shared/schema/index.js";

const TaskInputSchema = Type.Object({
  content: Type.String(),
  status: Type.Optional(TodoStatusSchema),
  details: Type.Optional(Type.String()),
  notes: Type.Optional(Type.String()),
});
const TodoOpSchema = Type.Object({
  op: Type.Enum(["replace", "add_phase", "add_task", "update", "remove_task"]),
  phases: Type.Optional(Type.Array(Type.Object({ name: Type.String(), tasks: Type.Optional(Type.Array(TaskInputSchema)) }))),
  name: Type.Optional(Type.String()),
  tasks: Type.Optional(Type.Array(TaskInputSchema)),
  phase: Type.Optional(Type.String({ description: "Phase id, e.g. phase-2" })),
  id: Type.Optional(Type.String({ description: "Task id, e.g. task-3" })),
  content: Type.Optional(Type.String()),
  status: Type.Optional(TodoStatusSchema),
  details: Type.Optional(Type.String()),
  notes: Type.Optional(Type.String()),
});
export const TodoWriteParams = Type.Object({ ops: Type.Array(TodoOpSchema, { minItems: 1 }) });

export type TodoWriteArgs = Static<typeof TodoWriteParams>;
export type TodoOp = Static<typeof TodoOpSchema>;
export type TaskInput = Static<typeof TaskInputSchema>;
