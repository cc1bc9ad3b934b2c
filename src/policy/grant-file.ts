// "Allow always" grants, kept with the user and never in a session file (a session file can be
// shared or downloaded; it must not grant itself rights). One JSON file in PITH_HOME holds the
// allow rules granted per project, keyed by the project folder's canonical real path:
//
//   PITH_HOME/grants.json
//   {"version":1,"projects":{"/home/me/app":{"allow":["bash(npm test:*)","edit(src/app.ts)"]}}}
//
// - Every read goes to the file, so a grant made by another pith process, or removed by hand,
//   counts from the next session opened.
// - A write re-reads the file, merges, and replaces it atomically (temp file + rename, mode
//   0600), so two processes granting at once both keep their rules.
// - A file pith cannot read as grants (bad JSON, wrong shape) grants nothing, is reported once,
//   and is never rewritten: a grant made meanwhile holds for the running process only.
// - A rule that does not parse is left out with a warning.
import { mkdirSync, readFileSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { validatePermissionRules } from "./rule.js";

export const GRANTS_FILE = "grants.json";

/** The grants of one project, as the session's grant-store port expects them. */
export interface ProjectGrants {
  /** Where the grants are kept. */
  readonly location: string;
  /** The canonical real path the grants are keyed by. */
  readonly project: string;
  /** The project's granted allow rules, read from the file now. */
  load(): string[];
  /** Adds rules to the project's grants; throws when the file cannot be written. */
  add(rules: readonly string[]): void;
  /** Replaces the project's grants (an empty list revokes them all); throws when the file cannot be written. */
  replace(rules: readonly string[]): void;
}

interface GrantsJson {
  version: 1;
  projects: Record<string, { allow: string[] }>;
}

/** The canonical real path of a project folder (the folder as given when it cannot be resolved). */
export function projectKey(cwd: string): string {
  try {
    return realpathSync(cwd);
  } catch {
    // A folder that vanished or cannot be reached: its grants are keyed by the path as given.
    return resolve(cwd);
  }
}

/** The grants of the project at `cwd`, kept in `PITH_HOME/grants.json`. */
export function openProjectGrants(o: { pithHome: string; cwd: string; warn(message: string): void }): ProjectGrants {
  const location = join(o.pithHome, GRANTS_FILE);
  const project = projectKey(o.cwd);
  let reported = false;
  const read = (): GrantsJson | undefined => {
    const got = readGrantsFile(location);
    if (typeof got === "string") {
      if (!reported) o.warn(`pith: ignored ${location}: ${got}; no "Allow always" grant applies until it is fixed or removed`);
      reported = true;
      return undefined;
    }
    return got;
  };
  const write = (change: (current: string[]) => string[]): void => {
    const data = read();
    if (!data) throw new Error(`${location} cannot be read as grants, so pith does not rewrite it`);
    const next = change(data.projects[project]?.allow ?? []);
    if (next.length > 0) data.projects[project] = { allow: next };
    else delete data.projects[project];
    writeAtomically(o.pithHome, location, `${JSON.stringify(data, null, 2)}\n`);
  };
  return {
    location,
    project,
    load() {
      const rules = read()?.projects[project]?.allow ?? [];
      return rules.filter((rule) => {
        const problems = validatePermissionRules({ allow: [rule] });
        if (problems.length > 0) o.warn(`pith: ignored a granted rule in ${location}: ${problems[0]}`);
        return problems.length === 0;
      });
    },
    add(rules) {
      write((current) => [...new Set([...current, ...rules])]);
    },
    replace(rules) {
      write(() => [...new Set(rules)]);
    },
  };
}

/** The file's grants (empty when it does not exist), or why it cannot be read as grants. */
function readGrantsFile(path: string): GrantsJson | string {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, projects: {} };
    return `cannot read it (${(err as Error).message})`;
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    return `not valid JSON (${(err as Error).message})`;
  }
  const projects = (data as { projects?: unknown } | null)?.projects;
  if (typeof projects !== "object" || projects === null || Array.isArray(projects)) return 'expected {"version":1,"projects":{...}}';
  const out: GrantsJson = { version: 1, projects: {} };
  for (const [key, value] of Object.entries(projects)) {
    const allow = (value as { allow?: unknown } | null)?.allow;
    if (!Array.isArray(allow) || allow.some((r) => typeof r !== "string")) return `projects["${key}"].allow: expected an array of rules`;
    out.projects[key] = { allow: allow as string[] };
  }
  return out;
}

function writeAtomically(dir: string, path: string, text: string): void {
  mkdirSync(dir, { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
