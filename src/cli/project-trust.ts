// Whether a folder is trusted, i.e. whether its project layer (settings, extensions, agents,
// rules, prompts, MCP servers) loads. The first that decides wins:
//   1. the command line: `--trust-project` / `--approve` / `-a` (yes), `--no-approve` / `-na` (no);
//   2. PITH_TRUST_PROJECT (1/true/yes/on: yes; 0/false/no/off: no);
//   3. the closest saved decision for the folder or a parent: `PITH_HOME/trust.json` entries, and
//      the global `trustedFolders` list (a "yes" for each folder listed; at the same folder a
//      trust.json entry wins);
//   4. the global `defaultProjectTrust`: "always" trusts, "ask" (the default) and "never" do not.
// Folders are compared by canonical real path, so a symlink to a trusted folder is trusted and a
// symlink inside a trusted folder pointing elsewhere is judged by where it points.
// At run time the host (`trust_project`) or a user-level extension (`project_trust`) may trust
// a folder that is not trusted yet.
import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";
import { errorMessage } from "../shared/errors.js";
import type { ProjectTrustSource } from "../shared/schema/index.js";
import { closestDecision, readTrustFile, trustFilePath, type TrustDecisions } from "./trust-store.js";

/** Who decided: the wire's `projectTrust.source`. */
export type TrustSource = ProjectTrustSource;

export interface TrustDecision {
  /** The folder judged (canonical real path). */
  folder: string;
  trusted: boolean;
  source: TrustSource;
}

export type DefaultProjectTrust = "ask" | "always" | "never";

/** The canonical real path of a folder (symlinks resolved); the absolute path when it cannot be resolved. */
export function canonicalFolder(p: string): string {
  const abs = path.resolve(p === "~" || p.startsWith("~/") ? path.join(homedir(), p.slice(1)) : p);
  try {
    return realpathSync.native(abs);
  } catch (err) {
    // a folder that does not exist (yet) is compared by its absolute path
    void err;
    return abs;
  }
}

const YES = ["1", "true", "yes", "on"];
const NO = ["0", "false", "no", "off"];

/** The decision the command line or PITH_TRUST_PROJECT forces, if any; another env value is ignored with a warning. */
export function trustOverride(
  flag: boolean | undefined,
  envValue: string | undefined,
  warn: (message: string) => void,
): { trusted: boolean; source: "flag" | "env" } | undefined {
  if (flag !== undefined) return { trusted: flag, source: "flag" };
  const v = envValue?.trim().toLowerCase();
  if (!v) return undefined;
  if (YES.includes(v)) return { trusted: true, source: "env" };
  if (NO.includes(v)) return { trusted: false, source: "env" };
  warn(`pith: PITH_TRUST_PROJECT="${envValue}" ignored (expected 1/true/yes/on or 0/false/no/off)`);
  return undefined;
}

export interface TrustInputs {
  /** Canonical folder. */
  folder: string;
  override?: { trusted: boolean; source: "flag" | "env" };
  /** trust.json's decisions. */
  saved: TrustDecisions;
  /** The global `trustedFolders`, canonical. */
  trustedFolders: readonly string[];
  defaultProjectTrust: DefaultProjectTrust;
}

/** The decision for one folder (pure: every input is given). */
export function decideTrust(i: TrustInputs): TrustDecision {
  const folder = i.folder;
  if (i.override) return { folder, ...i.override };
  const listed = new Set(i.trustedFolders);
  const saved = closestDecision(i.saved, folder);
  for (let dir = folder; ; dir = path.dirname(dir)) {
    if (saved?.path === dir) return { folder, trusted: saved.decision, source: "saved" };
    if (listed.has(dir)) return { folder, trusted: true, source: "trusted_folders" };
    if (path.dirname(dir) === dir) break;
  }
  return { folder, trusted: i.defaultProjectTrust === "always", source: "default" };
}

export interface ResolveTrustOptions {
  cwd: string;
  pithHome: string;
  /** `--trust-project` / `--no-approve` (ParsedArgs.trustProject). */
  flag: boolean | undefined;
  /** PITH_TRUST_PROJECT. */
  envValue: string | undefined;
  trustedFolders: readonly string[];
  defaultProjectTrust: DefaultProjectTrust;
  warn(message: string): void;
}

/** Reads trust.json (a damaged file counts as no decision, with a warning) and decides for `cwd`. */
export function resolveProjectTrust(o: ResolveTrustOptions): TrustDecision {
  const override = trustOverride(o.flag, o.envValue, o.warn);
  let saved: TrustDecisions = {};
  if (!override) {
    try {
      saved = readTrustFile(trustFilePath(o.pithHome));
    } catch (err) {
      o.warn(`pith: saved trust decisions not used: ${errorMessage(err)}`);
    }
  }
  return decideTrust({
    folder: canonicalFolder(o.cwd),
    override,
    saved,
    trustedFolders: o.trustedFolders.map(canonicalFolder),
    defaultProjectTrust: o.defaultProjectTrust,
  });
}
