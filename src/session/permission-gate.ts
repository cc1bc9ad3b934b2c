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
  if (g.permissions.inactive) return run();
  const args = toolArgs(call);
  const judged: PermissionCall = { toolName: tool.name, arguments: args, effect: tool.effect ?? "unknown" };
  const refusal = await judgeCall(g, judged, call.id, tool.paths && (() => tool.paths!(args)));
  return refusal === undefined ? run() : denied(tool.name, refusal);
}

/**
 * Files another tool is about to change (a language server's rename), each judged as an `edit`
 * of that file: the same rules, mode and approval dialog as the edit tool. Rejects with the
 * reason of the first refusal; nothing is written then.
 */
export async function approveFileWrites(g: GateContext, paths: readonly string[], toolCallId: string): Promise<void> {
  if (g.permissions.inactive) return;
  for (const path of paths) {
    const refusal = await judgeCall(g, { toolName: "edit", arguments: { path }, effect: "writes-files", paths: [{ path, scope: "file" }] }, toolCallId);
    if (refusal !== undefined) throw new Error(`Permission denied: ${path} was not changed (judged as an edit of it). ${refusal}`);
  }
}

/**
 * Why the call may not run (deny, or an ask that was not allowed), or undefined when it may.
 * `declarePaths` is the tool's own declaration of the places the call touches; a declaration that
 * throws denies the call.
 */
async function judgeCall(
  g: GateContext,
  judged: PermissionCall,
  toolCallId: string,
  declarePaths?: () => PermissionCall["paths"],
): Promise<string | undefined> {
  const p = g.permissions;
  let decision: PermissionDecision;
  try {
    if (declarePaths) judged.paths = declarePaths();
    decision = await decidePermission(judged, p.rules(), p.mode, g.cwd);
  } catch (err) {
    return `pith could not judge the call against the permission rules (${errorMessage(err)}), so it was denied.`;
  }
  if (decision.decision === "allow") return undefined;
  if (decision.decision === "deny") return decision.reason;
  let answer: PermissionAnswer;
  try {
    const dialog = await permissionDialog({ ...judged, toolCallId }, decision, g.cwd, { timeoutMs: p.timeoutMs });
    const asker = p.dialogs;
    const request = { title: dialog.title, options: dialog.options, timeout: dialog.timeout, permission: dialog.permission };
    answer = readPermissionAnswer(dialog, asker ? await asker.ask(request, g.signal) : "no-ui");
  } catch (err) {
    return `The approval dialog failed (${errorMessage(err)}), so the call was denied.`;
  }
  if (answer.verdict === "deny") return answer.reason;
  if (answer.always) p.recordAllow(answer.rules);
  return undefined;
}
