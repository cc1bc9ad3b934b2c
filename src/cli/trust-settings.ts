// The trust keys of settings.json: `trustedFolders` and `defaultProjectTrust`, read from the
// user's global settings only (a project cannot trust itself; project-trust.ts says how they count).
import path from "node:path";
import type { ExplainedLeaf } from "./policy-settings.js";

const folderProblem = (v: unknown): string | undefined => {
  if (!Array.isArray(v)) return "trustedFolders: expected an array of absolute paths";
  const bad = v.find((f) => typeof f !== "string" || !(path.isAbsolute(f) || f === "~" || f.startsWith("~/")));
  return bad === undefined ? undefined : `trustedFolders: ${JSON.stringify(bad)} is not an absolute path`;
};
const TRUST_MODES = ["ask", "always", "never"];

/** The validation rules of the trust keys (merged into settings.ts's table). */
export const TRUST_SPEC: Record<"trustedFolders" | "defaultProjectTrust", ExplainedLeaf> = {
  trustedFolders: { check: (v) => folderProblem(v) === undefined, expected: "an array of absolute paths", problem: folderProblem },
  defaultProjectTrust: {
    check: (v) => typeof v === "string" && TRUST_MODES.includes(v),
    expected: `one of ${TRUST_MODES.map((m) => `"${m}"`).join(", ")}`,
    problem: () => undefined,
  },
};

/** Keys a project file cannot set: dropped from it with a warning. */
export const GLOBAL_ONLY_TRUST_KEYS = ["trustedFolders", "defaultProjectTrust"] as const;
