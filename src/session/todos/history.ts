// Re-deriving the todo list from the conversation: the newest successful
// `todo_write` result's `details.phases`, minus completed/abandoned tasks and empty phases.
import type { AgentMessage, TodoPhase } from "../../shared/types.js";
import { copyTodoPhases, isDone } from "./normalize.js";

const TODO_TOOL = "todo_write";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The snapshot in a result's details, or undefined when it is missing or malformed. */
function phasesOf(details: unknown): TodoPhase[] | undefined {
  const phases = isObject(details) ? details.phases : undefined;
  if (!Array.isArray(phases)) return undefined;
  const wellFormed = phases.every((p) => isObject(p) && Array.isArray(p.tasks) && p.tasks.every(isObject));
  return wellFormed ? copyTodoPhases(phases, true) : undefined;
}

/** The todo list a session resumes with, given its current context (newest last). */
export function todosFromHistory(messages: AgentMessage[]): TodoPhase[] {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m.role !== "toolResult" || m.toolName !== TODO_TOOL || m.isError) continue;
    const phases = phasesOf(m.details);
    if (!phases) continue;
    return phases
      .map((p) => ({ ...p, tasks: p.tasks.filter((t) => !isDone(t)) }))
      .filter((p) => p.tasks.length > 0);
  }
  return [];
}
