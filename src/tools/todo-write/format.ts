// The readable text of a todo list returned by todo_write.
import { displayText } from "../../shared/display-text.js";
import type { TodoPhase, TodoStatus } from "../../shared/types.js";

const MARK: Record<TodoStatus, string> = { completed: "✓", in_progress: "→", abandoned: "✗", pending: "○" };

/** A host may store any status with set_todos: only the four known ones have a mark. */
function mark(status: unknown): string {
  return typeof status === "string" && Object.hasOwn(MARK, status) ? MARK[status as TodoStatus] : `[${displayText(status)}]`;
}

function isOpen(status: TodoStatus): boolean {
  return status === "pending" || status === "in_progress";
}

export function formatTodos(phases: TodoPhase[], errors: string[]): string {
  const lines: string[] = [];
  if (errors.length) lines.push(`Errors: ${errors.join("; ")}`);
  const all = phases.flatMap((p) => p.tasks.map((t) => ({ t, p })));
  if (all.length === 0 && phases.length === 0) {
    lines.push("Todo list cleared.");
    return lines.join("\n");
  }
  const open = all.filter(({ t }) => isOpen(t.status));
  if (open.length === 0) lines.push("Remaining items: none.");
  else {
    lines.push(`Remaining items (${open.length}):`);
    for (const { t, p } of open) {
      lines.push(`  - ${displayText(t.id)} ${displayText(t.content)} [${t.status}] (${displayText(p.name)})`);
      if (t.status === "in_progress" && typeof t.details === "string" && t.details) lines.push(...t.details.split("\n").map((l) => `      ${l}`));
    }
  }
  const idx = phases.findIndex((p) => p.tasks.some((t) => isOpen(t.status)));
  if (idx !== -1) {
    const p = phases[idx];
    const done = p.tasks.filter((t) => !isOpen(t.status)).length;
    lines.push(`Phase ${idx + 1}/${phases.length} "${displayText(p.name)}" — ${done}/${p.tasks.length} tasks complete`);
  }
  for (const p of phases) {
    lines.push("", `${displayText(p.name)}:`);
    for (const t of p.tasks) lines.push(`  ${mark(t.status)} ${displayText(t.id)} ${displayText(t.content)}`);
  }
  return lines.join("\n");
}
