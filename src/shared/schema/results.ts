// What tools, compaction and the todo list hand back.
import Type from "typebox";
import { UserContentSchema } from "./content.js";
import { RecordSchema, literals } from "./primitives.js";

const Str = Type.String();
const Opt = Type.Optional;

export const AgentToolResultSchema = Type.Object({
  content: Type.Array(UserContentSchema),
  details: Opt(Type.Unknown()),
  isWarning: Opt(Type.Boolean()),
});

export const TodoStatusSchema = literals(["pending", "in_progress", "completed", "abandoned"]);
export const TodoItemSchema = Type.Object({
  id: Str,
  content: Str,
  status: TodoStatusSchema,
  notes: Opt(Str),
  details: Opt(Str),
});
export const TodoPhaseSchema = Type.Object({ id: Str, name: Str, tasks: Type.Array(TodoItemSchema) });

export const CompactionResultSchema = Type.Object({
  summary: Str,
  shortSummary: Opt(Str),
  firstKeptEntryId: Str,
  tokensBefore: Type.Number(),
  details: Opt(Type.Unknown()),
  preserveData: Opt(RecordSchema),
});

/** A stream rule (TTSR) as `ttsr_triggered` reports it. */
export const TtsrRuleSchema = Type.Object({
  name: Str,
  path: Str,
  content: Str,
  globs: Opt(Type.Array(Str)),
  alwaysApply: Opt(Type.Boolean()),
  description: Opt(Str),
  condition: Opt(Type.Array(Str)),
  scope: Opt(Type.Array(Str)),
  interruptMode: Opt(literals(["never", "prose-only", "tool-only", "always"])),
  _source: Type.Object({
    provider: Str,
    providerName: Str,
    path: Str,
    level: literals(["user", "project", "native"]),
  }),
});
