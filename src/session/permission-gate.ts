// The permission check before every tool call, by the tool's full name (built-in, host,
// extension and MCP tools alike), its declared effect and the places it declares it reads or
// writes (src/tools/types.ts). A deferred tool reached through `call_tool` arrives here
// unwrapped, as itself. It runs inside the extension `tool_call` hooks (they see the call first
// and may block it) and decides with the policy layer: allow → the tool runs; deny → an error
// result saying who denied it and why; ask → an approval dialog through the session's
// PermissionAsker, whose cancel, timeout, EOF or absence deny.
import {
  decidePermission,
  deniedResultText,
  permissionDialog,
  readPermissionAnswer,
  type PermissionAnswer,
  type PermissionCall,
  type PermissionDecision,
} from "../policy/index.js";
import { errorMessage } from "../shared/errors.js";
import type { ToolCall } from "../shared/types.js";
import type { Tool, ToolOutcome } from "../tools/types.js";
import type { SessionPermissions } from "./session-permissions.js";

const INTENT_KEY = "_i";

function denied(toolName: string, reason: string): ToolOutcome {
  return { isError: true, result: { content: [{ type: "text", text: deniedResultText(toolName, reason) }], details: { permission: "denied" } } };
}

/** The arguments the tool receives (without the intent-tracing key). */
function toolArgs(call: ToolCall): Record<string, unknown> {
  const raw = call.arguments ?? {};
  if (!Object.hasOwn(raw, INTENT_KEY)) return raw;
  const { [INTENT_KEY]: _intent, ...rest } = raw;
  return rest;
}

export interface GateContext {
  permissions: SessionPermissions;
  cwd: string;
  /** The run's signal: an abort cancels a pending dialog (and so denies the call). */
  signal: AbortSignal;
}

/** Runs `run` if the call may run; otherwise the denied call's error outcome. */
export async function gateToolCall(g: GateContext, call: ToolCall, tool: Tool, run: () => Promise<ToolOutcome>): Promise<ToolOutcome> {
  const p = g.permissions;
  if (p.inactive) return run();
  const args = toolArgs(call);
  const judged: PermissionCall = { toolName: tool.name, arguments: args, effect: tool.effect ?? "unknown" };
  let decision: PermissionDecision;
  try {
    if (tool.paths) judged.paths = tool.paths(args);
    decision = await decidePermission(judged, p.rules(), p.mode, g.cwd);
  } catch (err) {
    return denied(tool.name, `pith could not judge the call against the permission rules (${errorMessage(err)}), so it was denied.`);
  }
  if (decision.decision === "allow") return run();
  if (decision.decision === "deny") return denied(tool.name, decision.reason);
  let answer: PermissionAnswer;
  try {
    const dialog = await permissionDialog({ ...judged, toolCallId: call.id }, decision, g.cwd, { timeoutMs: p.timeoutMs });
    const asker = p.dialogs;
    const request = { title: dialog.title, options: dialog.options, timeout: dialog.timeout, permission: dialog.permission };
    answer = readPermissionAnswer(dialog, asker ? await asker.ask(request, g.signal) : "no-ui");
  } catch (err) {
    return denied(tool.name, `The approval dialog failed (${errorMessage(err)}), so the call was denied.`);
  }
  if (answer.verdict === "deny") return denied(tool.name, answer.reason);
  if (answer.always) p.recordAllow(answer.rules);
  return run();
}
