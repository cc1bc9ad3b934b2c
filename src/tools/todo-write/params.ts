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

const STATUS = { enum: ["pending", "in_progress", "completed", "abandoned"] };
/**
 * What the model is shown (every request carries it): the same fields with the nested
 * task shape written once, in words. The tool still checks every call against TodoWriteParams.
 */
export const TODO_WRITE_ADVERTISED: Record<string, unknown> = {
  type: "object",
  required: ["ops"],
  properties: {
    ops: {
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        required: ["op"],
        properties: {
          op: { enum: ["replace", "add_phase", "add_task", "update", "remove_task"] },
          phases: { type: "array", description: "[{name, tasks?: [task]}]" },
          name: { type: "string" },
          tasks: { type: "array", description: "[{content, status?, details?, notes?}]" },
          phase: { type: "string" },
          id: { type: "string", description: "task-N" },
          content: { type: "string" },
          status: STATUS,
          details: { type: "string" },
          notes: { type: "string" },
        },
      },
    },
  },
};
