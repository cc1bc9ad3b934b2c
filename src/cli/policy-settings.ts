// The `permissions` and `sandbox` settings: their validation leaves (each bad rule or root is
// named), their defaults, and the merge of the rule lists (a project file adds rules to the
// global file's, it never drops one: a global deny rule stays in force).
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

/** A validation leaf that can say exactly what is wrong (settings.ts reads `problem`). */
export interface ExplainedLeaf {
  check(value: unknown): boolean;
  expected: string;
  problem(value: unknown): string | undefined;
}

function ruleList(name: "allow" | "ask" | "deny"): ExplainedLeaf {
  const problem = (value: unknown) => validatePermissionRules({ [name]: value }, "permissions")[0];
  return { check: (v) => problem(v) === undefined, expected: 'an array of rules such as "bash(npm test)"', problem };
}

const writableRoots: ExplainedLeaf = {
  check: (v) => validateSandboxSettings({ writableRoots: v })[0] === undefined,
  expected: "an array of absolute paths",
  problem: (v) => validateSandboxSettings({ writableRoots: v })[0],
};

const oneOf = (values: readonly string[]): ExplainedLeaf => ({
  check: (v) => typeof v === "string" && values.includes(v),
  expected: `one of ${values.map((v) => `"${v}"`).join(", ")}`,
  problem: () => undefined,
});
const count: ExplainedLeaf = { check: (v) => Number.isInteger(v) && (v as number) >= 0, expected: "a non-negative integer", problem: () => undefined };
const bool: ExplainedLeaf = { check: (v) => typeof v === "boolean", expected: "true or false", problem: () => undefined };

/** The validation table entries of both settings. */
export const POLICY_SPEC = {
  permissions: { mode: oneOf(PERMISSION_MODES), allow: ruleList("allow"), ask: ruleList("ask"), deny: ruleList("deny"), timeoutMs: count },
  sandbox: { mode: oneOf(SANDBOX_MODES), network: bool, writableRoots },
};

/** The rule lists of `override` are appended to those of `base` (deduplicated); other keys replace. */
export function mergePermissionLists(base: PermissionsSetting, override: Partial<PermissionsSetting> | undefined): PermissionsSetting {
  if (!override) return base;
  const out = { ...base, ...override };
  for (const list of ["allow", "ask", "deny"] as const) out[list] = [...new Set([...base[list], ...(override[list] ?? [])])];
  return out;
}
