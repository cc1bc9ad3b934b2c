// The lsp tool's changes: rename (applied unless apply is false) and code_actions (listed;
// with apply and a query, the matching action's edit is applied and its command run). Every
// edit goes through applyWorkspaceEdit, the edit tools' write path.
import type { CodeAction, Command, Position, WorkspaceEdit } from "vscode-languageserver-protocol";
import type { Target } from "./call-context.js";
import { uriOf } from "./documents.js";
import type { EditApplier } from "./manager.js";
import { applyWorkspaceEdit, changeLines, planChanges, type EditIO } from "./workspace-edit.js";

export interface EditCall {
  io: EditIO;
  cwd: string;
  toolCallId: string;
  signal: AbortSignal;
  /** Runs `work` while the server's own edit requests are applied (a code action's command). */
  withApplier<T>(applier: EditApplier, work: () => Promise<T>): Promise<T>;
}

export async function rename(t: Target, position: Position, newName: string, apply: boolean, c: EditCall): Promise<string> {
  const edit = await t.server.request<WorkspaceEdit | null>("textDocument/rename", { textDocument: { uri: uriOf(t.abs) }, position, newName }, c.signal);
  if (!edit) return "The server made no edits for this rename.";
  if (!apply) {
    const planned = await planChanges(edit, c.io.fs);
    return `Rename to ${newName} would change ${planned.length} file(s) (not applied):\n${changeLines(planned, c.cwd).join("\n")}`;
  }
  const changes = await applyWorkspaceEdit(edit, c.io, c);
  return `Renamed to ${newName}: ${changes.length} file(s) changed:\n${changeLines(changes, c.cwd).join("\n")}`;
}

export async function codeActions(t: Target, position: Position, query: string | undefined, apply: boolean, c: EditCall): Promise<string> {
  const uri = uriOf(t.abs);
  const range = { start: position, end: position };
  const diagnostics = (t.instance.board.get(uri) ?? []).filter((d) => d.range.start.line <= position.line && d.range.end.line >= position.line);
  const only = !apply && query ? [query] : undefined;
  const list = (await t.server.request<Array<CodeAction | Command> | null>("textDocument/codeAction", { textDocument: { uri }, range, context: { diagnostics, only, triggerKind: 1 } }, c.signal)) ?? [];
  if (list.length === 0) return "No code actions here.";
  const listing = list.map((a, i) => `${i}. ${a.title}${"kind" in a && a.kind ? ` (${a.kind})` : ""}`).join("\n");
  if (!apply) return `${list.length} code action(s):\n${listing}\nApply one with apply: true and query: its number or part of its title.`;
  if (!query?.trim()) throw new Error("code_actions with apply: true needs query: the action's number or part of its title");
  const q = query.trim();
  const chosen = /^\d+$/.test(q) ? list[Number(q)] : list.find((a) => a.title.toLowerCase().includes(q.toLowerCase()));
  if (!chosen) return `No code action matches "${q}". Available:\n${listing}`;
  return applyAction(t, chosen, c);
}

async function applyAction(t: Target, chosen: CodeAction | Command, c: EditCall): Promise<string> {
  let action: CodeAction | Command = chosen;
  if (isCodeAction(action) && !action.edit && !action.command && resolvable(t)) {
    action = await t.server.request<CodeAction>("codeAction/resolve", action, c.signal);
  }
  const lines: string[] = [];
  if (isCodeAction(action) && action.edit) lines.push(...changeLines(await applyWorkspaceEdit(action.edit, c.io, c), c.cwd));
  const command = isCodeAction(action) ? action.command : action;
  if (command) {
    const applier: EditApplier = async (edit) => {
      try {
        lines.push(...changeLines(await applyWorkspaceEdit(edit, c.io, c), c.cwd));
        return { applied: true };
      } catch (err) {
        lines.push(`not applied: ${(err as Error).message}`);
        return { applied: false, failureReason: (err as Error).message };
      }
    };
    await c.withApplier(applier, () => t.server.request("workspace/executeCommand", { command: command.command, arguments: command.arguments ?? [] }, c.signal));
  }
  if (lines.length === 0) return `Applied "${chosen.title}": no file changed.`;
  return `Applied "${chosen.title}":\n${lines.join("\n")}`;
}

function isCodeAction(a: CodeAction | Command): a is CodeAction {
  return typeof (a as Command).command !== "string";
}

function resolvable(t: Target): boolean {
  const p = t.server.capabilities.codeActionProvider;
  return typeof p === "object" && p !== null && p.resolveProvider === true;
}
