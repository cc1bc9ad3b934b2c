// The approval dialog of an "ask" decision, as pure functions. The wiring sends
// `permissionDialog(...)` as an `extension_ui_request` of method `select` (so every seed host
// with dialog handling can answer it) and reads the answer with `readPermissionAnswer`:
//
//   {"type":"extension_ui_request","id":"…","method":"select","title":"Allow bash: git push origin main?",
//    "options":["Allow once","Allow always","Deny"],
//    "permission":{"toolCallId":"call_1","toolName":"bash","arguments":{"command":"git push origin main"},
//                  "rule":"bash(git push:*)","reason":"The permission mode \"ask-writes\" asks before bash runs unless a rule allows it."}}
//
// `permission.rule` is what "Allow always" records (several joined with ", "); it is absent when
// nothing can be recorded: an ask rule caught the call (ask outranks allow, so a recorded allow
// rule would not stop the next ask), and then "Allow always" allows this call only.
import { homedir } from "node:os";
import { allowRulesFor } from "./allow-always.js";
import type { PermissionCall, PermissionDecision } from "./types.js";

export const ALLOW_ONCE = "Allow once";
export const ALLOW_ALWAYS = "Allow always";
export const DENY = "Deny";
export const PERMISSION_OPTIONS: readonly string[] = [ALLOW_ONCE, ALLOW_ALWAYS, DENY];

export interface PermissionCallInfo extends PermissionCall {
  toolCallId: string;
}

export interface PermissionPayload {
  toolCallId: string;
  toolName: string;
  arguments: Record<string, unknown>;
  /** The allow rule(s) "Allow always" records, joined with ", "; absent when none can be. */
  rule?: string;
  /** Why pith asks (the decision's reason). */
  reason: string;
}

export interface PermissionDialog {
  method: "select";
  title: string;
  options: string[];
  /** Milliseconds (`permissions.timeoutMs`); absent = wait until answered, cancelled or stdin closes. */
  timeout?: number;
  permission: PermissionPayload;
  /** The rules to record on "Allow always" (the payload's `rule`, as a list). */
  allowRules: string[];
}

const MAX_TITLE_DETAIL = 200;

function clip(text: string): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > MAX_TITLE_DETAIL ? `${one.slice(0, MAX_TITLE_DETAIL - 1)}…` : one;
}

/** "Allow bash: npm test?", "Allow edit: src/app.ts?" (the places a call declares), "Allow grep: "TODO" in src?", "Allow deploy {"env":"prod"}?" */
export function permissionTitle(call: PermissionCall): string {
  const a = call.arguments;
  const str = (k: string) => (typeof a[k] === "string" ? (a[k] as string) : undefined);
  let detail: string;
  if (call.toolName === "bash") detail = `: ${clip(str("command") ?? "")}`;
  else if (call.toolName === "grep" || call.toolName === "find") detail = `: "${clip(str("pattern") ?? "")}" in ${clip(str("path") ?? ".")}`;
  else if (call.paths && call.paths.length > 0) detail = `: ${clip(call.paths.map((p) => p.path).join(", "))}`;
  else detail = Object.keys(a).length > 0 ? ` ${clip(JSON.stringify(a))}` : "";
  return `Allow ${call.toolName}${detail}?`;
}

/** The dialog for a call the rules or the mode ask about. */
export async function permissionDialog(
  call: PermissionCallInfo,
  decision: PermissionDecision,
  cwd: string,
  opts: { timeoutMs?: number; home?: string } = {},
): Promise<PermissionDialog> {
  const allowRules = decision.list === "ask" ? [] : await allowRulesFor(call, cwd, opts.home ?? homedir());
  const permission: PermissionPayload = { toolCallId: call.toolCallId, toolName: call.toolName, arguments: call.arguments, reason: decision.reason };
  if (allowRules.length > 0) permission.rule = allowRules.join(", ");
  const dialog: PermissionDialog = { method: "select", title: permissionTitle(call), options: [...PERMISSION_OPTIONS], permission, allowRules };
  if (opts.timeoutMs !== undefined && opts.timeoutMs > 0) dialog.timeout = opts.timeoutMs;
  return dialog;
}

/** How the dialog ended when no option came back. */
export type NoAnswer = "cancelled" | "timeout" | "eof" | "no-ui";

export type PermissionAnswer =
  | { verdict: "allow"; always: false }
  | { verdict: "allow"; always: true; rules: string[] }
  | { verdict: "deny"; reason: string };

const NO_ANSWER_REASON: Record<NoAnswer, string> = {
  cancelled: "The approval dialog was cancelled, so the call was denied.",
  timeout: "Nobody answered the approval dialog in time, so the call was denied.",
  eof: "The host closed its input before answering the approval dialog, so the call was denied.",
  "no-ui": "The call needs approval and there is no one to ask (no host dialog support), so it was denied.",
};

/** The outcome of the dialog: the selected option, or why there is none. Anything but Allow once/always denies. */
export function readPermissionAnswer(dialog: PermissionDialog, answer: { value?: unknown } | NoAnswer): PermissionAnswer {
  if (typeof answer === "string") return { verdict: "deny", reason: NO_ANSWER_REASON[answer] };
  if (answer.value === undefined) return { verdict: "deny", reason: NO_ANSWER_REASON.cancelled };
  if (answer.value === ALLOW_ONCE) return { verdict: "allow", always: false };
  if (answer.value === ALLOW_ALWAYS) {
    return dialog.allowRules.length > 0 ? { verdict: "allow", always: true, rules: dialog.allowRules } : { verdict: "allow", always: false };
  }
  if (answer.value === DENY) return { verdict: "deny", reason: "The user denied this call." };
  return { verdict: "deny", reason: `The approval dialog got an answer that is not one of its options (${JSON.stringify(answer.value)}), so the call was denied.` };
}

/** The text of a denied call's tool error result: who denied it and why. */
export function deniedResultText(toolName: string, reason: string): string {
  return `Permission denied: ${toolName} did not run. ${reason}`;
}
