// Permissions in an editor: pith's permission modes are ACP session modes, and an approval
// dialog of the permission rules is `session/request_permission` with ACP's four option kinds.
import type { AgentSession, PermissionAsker } from "../session/index.js";
import type { DialogPort, PermissionOptionSpec } from "./dialogs.js";
import { toolKind } from "./tool-calls.js";

const MODES = [
  { id: "allow", name: "Allow all", description: "Every tool call runs (pith's default)" },
  { id: "ask", name: "Ask", description: "Every tool call not allowed by a rule asks first" },
  { id: "ask-writes", name: "Ask before changes", description: "Tools declared read-only run; every tool that may change something asks" },
  { id: "read-only", name: "Read only", description: "Only tools declared read-only run; the rest are refused unless a rule allows them" },
] as const;

/** The session's mode state as `session/new` and `session/load` answer it. */
export function modeState(session: AgentSession): { currentModeId: string; availableModes: Array<{ id: string; name: string; description: string }> } {
  return { currentModeId: session.getState().permissions?.mode ?? "allow", availableModes: MODES.map((m) => ({ ...m })) };
}

export function isModeId(id: string): boolean {
  return MODES.some((m) => m.id === id);
}

// pith's dialog answers (policy/ask-dialog.ts): "Allow once", "Allow always", "Deny".
const OPTIONS: PermissionOptionSpec[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Allow always", kind: "allow_always" },
  { optionId: "reject_once", name: "Deny", kind: "reject_once" },
  { optionId: "reject_always", name: "Deny (ask again next time)", kind: "reject_always" },
];
const ANSWERS: Record<string, string> = { allow_once: "Allow once", allow_always: "Allow always", reject_once: "Deny", reject_always: "Deny" };

/** The asker the session's permission gate uses: the editor's permission request, answered. */
export function createAcpPermissionAsker(port: DialogPort): PermissionAsker {
  return {
    async ask(request, signal) {
      const p = request.permission;
      let chosen: string | undefined;
      try {
        chosen = await port.askPermission({
          title: request.title,
          options: OPTIONS,
          toolCallId: p.toolCallId,
          rawInput: p.arguments,
          kind: toolKind(p.toolName),
          signal,
        });
      } catch {
        return "cancelled";
      }
      const value = chosen === undefined ? undefined : ANSWERS[chosen];
      return value === undefined ? "cancelled" : { value };
    },
  };
}
