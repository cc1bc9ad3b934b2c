// The eager todo prelude: on the first task-like prompt of a fresh
// conversation a hidden instruction asks the model to lay out a todo list before anything else.
import type { AgentMessage, CustomMessage, TodoPhase } from "../../shared/types.js";

export const EAGER_PRELUDE_TYPE = "eager-todo-prelude";

export interface EagerPreludeConditions {
  /** `todo.enabled` */
  enabled: boolean;
  /** `todo.eager` */
  eager: boolean;
  /** The current todo list (a pre-seeded list suppresses the prelude). */
  todos: TodoPhase[];
  /** The context before this prompt. */
  messages: AgentMessage[];
  promptText: string;
  /** `todo_write` is among the active tools. */
  hasTodoTool: boolean;
}

/**
 * True when the prelude goes before this prompt. Whether the model can be forced to call a tool
 * is the provider's business and is decided by the caller.
 */
export function shouldUseEagerPrelude(c: EagerPreludeConditions): boolean {
  if (!c.enabled || !c.eager || !c.hasTodoTool) return false;
  if (c.todos.some((p) => p.tasks.length > 0)) return false;
  if (c.messages.some((m) => m.role === "user")) return false;
  const text = c.promptText.trim();
  return !text.endsWith("?") && !text.endsWith("!");
}

const PRELUDE_TEXT = [
  "<system-reminder>",
  "Before doing anything else for the request that follows, call the todo_write tool exactly once with a single",
  '`replace` op that lays out the whole request as phases and tasks. Keep each task\'s content a short label and put',
  "implementation specifics in its `details` field. Mark exactly one task `in_progress` (the one you start with).",
  "Then carry on with the work in this same turn; do not stop to report the plan.",
  "</system-reminder>",
].join("\n");

/** The hidden message placed before the user's prompt. */
export function eagerPreludeMessage(now: number = Date.now()): CustomMessage {
  return { role: "custom", customType: EAGER_PRELUDE_TYPE, content: PRELUDE_TEXT, display: false, attribution: "agent", timestamp: now };
}
