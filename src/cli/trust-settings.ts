// The trust keys of settings.json: `trustedFolders` and `defaultProjectTrust`, read from the
// user's global settings only (a project cannot trust itself; project-trust.ts says how they count).
import path from "node:path";
import { Type } from "typebox";
import { explained, oneOf } from "./setting-schema.js";

const folderProblem = (v: unknown): string | undefined => {
  if (!Array.isArray(v)) return "trustedFolders: expected an array of absolute paths";
  const bad = v.find((f) => typeof f !== "string" || !(path.isAbsolute(f) || f === "~" || f.startsWith("~/")));
  return bad === undefined ? undefined : `trustedFolders: ${JSON.stringify(bad)} is not an absolute path`;
};
const TRUST_MODES = ["ask", "always", "never"];

/** The schemas of the trust keys (part of the settings schema). */
export const TRUST_SCHEMA = {
  trustedFolders: explained(Type.Unknown(), folderProblem),
  defaultProjectTrust: oneOf(TRUST_MODES),
};

/** Keys a project file cannot set: dropped from it with a warning. */
export const GLOBAL_ONLY_TRUST_KEYS = ["trustedFolders", "defaultProjectTrust"] as const;
