// Public surface of the policy layer: permission rules and modes, the approval dialog, the
// bubblewrap sandbox and the write guard. Everything a session needs goes through here.
export type { PermissionCall, PermissionDecision, PermissionMode, PermissionRules, RuleList, Verdict } from "./types.js";
export { PERMISSION_MODES } from "./types.js";
export { isPermissionMode, modeVerdict } from "./mode.js";
export { parseRule, validatePermissionRules, type ParsedRule } from "./rule.js";
export { decidePermission, type DecideOptions } from "./decide.js";
export { allowRulesFor, exactBashRule, pathSpecifier } from "./allow-always.js";
export {
  ALLOW_ALWAYS,
  ALLOW_ONCE,
  DENY,
  PERMISSION_OPTIONS,
  deniedResultText,
  permissionDialog,
  permissionTitle,
  readPermissionAnswer,
  type NoAnswer,
  type PermissionAnswer,
  type PermissionCallInfo,
  type PermissionDialog,
  type PermissionPayload,
} from "./ask-dialog.js";
export { analyseCommand, type CommandPart, type ShellAnalysis } from "./shell/analyse.js";
export { SANDBOX_MODES, isSandboxMode, sandboxState, validateSandboxSettings, type SandboxMode, type SandboxSettings, type SandboxState } from "./sandbox/config.js";
export { bwrapOptions, wrapInBwrap, type BwrapLayout, type CommandLine } from "./sandbox/bwrap-args.js";
export { probeSandbox, type ProbeOptions, type SandboxProbe } from "./sandbox/probe.js";
export { prepareSandbox, type PrepareOptions, type Sandbox } from "./sandbox/session-sandbox.js";
export { assertWritable, checkWritePath, type WriteCheck, type WriteRoots } from "./write-guard.js";
export { GRANTS_FILE, openProjectGrants, projectKey, type ProjectGrants } from "./grant-file.js";
export { PROTECTED_GIT_ENTRIES, PROTECTED_NAMES, protectedWriteReason } from "./protected-paths.js";
export { planProtection, type ProtectedEntry, type ProtectionPlan } from "./sandbox/protection-plan.js";
export { heldStandIns, removeAllStandInsSync } from "./sandbox/stand-ins.js";
