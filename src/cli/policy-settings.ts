// The `permissions` and `sandbox` settings: their schemas (each bad rule or root is named), their defaults, and the merge of the rule lists (a project file adds rules to the
// global file's, it never drops one: a global deny rule stays in force).
import { Type } from "typebox";
import { bool, count, explained, oneOf, section } from "./setting-schema.js";
import { PERMISSION_MODES, SANDBOX_MODES, validatePermissionRules, validateSandboxSettings, type PermissionMode, type SandboxMode } from "../policy/index.js";

export interface PermissionsSetting {
  mode: PermissionMode;
  allow: string[];
  ask: string[];
  deny: string[];
  /** Dialog timeout in ms; 0 = no limit. */
  timeoutMs: number;
}

export interface SandboxSetting {
  mode: SandboxMode;
  network: boolean;
  writableRoots: string[];
}

export function defaultPermissionsSetting(): PermissionsSetting {
  return { mode: "allow", allow: [], ask: [], deny: [], timeoutMs: 0 };
}

export function defaultSandboxSetting(): SandboxSetting {
  return { mode: "off", network: false, writableRoots: [] };
}

function ruleList(name: "allow" | "ask" | "deny") {
  return explained(Type.Unknown(), (value) => validatePermissionRules({ [name]: value }, "permissions")[0]);
}

/** The schemas of both settings. */
export const POLICY_SCHEMA = {
  permissions: section({ mode: oneOf(PERMISSION_MODES), allow: ruleList("allow"), ask: ruleList("ask"), deny: ruleList("deny"), timeoutMs: count() }),
  sandbox: section({ mode: oneOf(SANDBOX_MODES), network: bool(), writableRoots: explained(Type.Unknown(), (v) => validateSandboxSettings({ writableRoots: v })[0]) }),
};

/** The rule lists of `override` are appended to those of `base` (deduplicated); other keys replace. */
export function mergePermissionLists(base: PermissionsSetting, override: Partial<PermissionsSetting> | undefined): PermissionsSetting {
  if (!override) return base;
  const out = { ...base, ...override };
  for (const list of ["allow", "ask", "deny"] as const) out[list] = [...new Set([...base[list], ...(override[list] ?? [])])];
  return out;
}
