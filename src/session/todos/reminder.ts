// Todo reminders: when a run ends with a plain reply while tasks are still open,
// the agent is nudged to carry on, at most `max` times per prompt.
import type { AssistantMessage, DeveloperMessage, TodoItem, TodoPhase } from "../../shared/types.js";
import { displayText } from "../../shared/display-text.js";
import { isOpen } from "./normalize.js";

type OpenTask = TodoItem & { status: "pending" | "in_progress" };

export interface TodoReminderEvent {
  type: "todo_reminder";
  todos: Array<{ id: string; content: string; status: "pending" | "in_progress" }>;
  attempt: number;
  maxAttempts: number;
}

export interface TodoReminderOptions {
  /** `todo.enabled && todo.reminders` */
  enabled: boolean;
  /** `todo.reminders.max` */
  max: number;
}

/** Counts reminders within one prompt and builds the hidden message plus the event. */
export class TodoReminder {
  private count = 0;

  constructor(private readonly opts: TodoReminderOptions) {}

  /** Called at every new prompt. */
  reset(): void {
    this.count = 0;
  }

  /** The reminder to send after a run that ended with `last`, or undefined for none. */
  next(last: AssistantMessage, todos: TodoPhase[]): { message: DeveloperMessage; event: TodoReminderEvent } | undefined {
    if (!this.opts.enabled) return undefined;
    if (last.stopReason === "error" || last.stopReason === "aborted") return undefined;
    if (last.content.some((block) => block.type === "toolCall")) return undefined;
    const open = todos.map((p) => ({ name: p.name, tasks: p.tasks.filter(isOpen) })).filter((p) => p.tasks.length > 0);
    if (open.length === 0) {
      this.count = 0;
      return undefined;
    }
    if (this.count >= this.opts.max) return undefined;
    this.count += 1;
    const tasks = open.flatMap((p) => p.tasks);
    const message: DeveloperMessage = {
      role: "developer",
      content: reminderText(open, tasks.length, this.count, this.opts.max),
      attribution: "agent",
      timestamp: Date.now(),
    };
    const event: TodoReminderEvent = {
      type: "todo_reminder",
      todos: tasks.map((t) => ({ id: t.id, content: t.content, status: t.status })),
      attempt: this.count,
      maxAttempts: this.opts.max,
    };
    return { message, event };
  }
}

function reminderText(phases: Array<{ name: string; tasks: OpenTask[] }>, total: number, attempt: number, max: number): string {
  const lines = [
    "<system-reminder>",
    `You ended your turn, but ${total} todo item${total === 1 ? " is" : "s are"} still open:`,
  ];
  for (const phase of phases) {
    lines.push(`${displayText(phase.name)}:`);
    for (const t of phase.tasks) lines.push(`  - ${displayText(t.id)} ${displayText(t.content)} [${t.status}]`);
  }
  lines.push(
    "Keep working on them now. If some are already done or no longer needed, say so by updating the list " +
      "with todo_write (status completed or abandoned) instead of stopping silently.",
    `(Reminder ${attempt}/${max})`,
    "</system-reminder>",
  );
  return lines.join("\n");
}
