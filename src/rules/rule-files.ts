// Finding rule files without parsing them: `<cwd>/.pith/rules/*.md|.mdc`
// (level project) then `<pithHome>/rules/*.md|.mdc` (level user). Kept apart from the parser
// and the matcher so that a session with no rule files never loads them.
import { readdirSync } from "node:fs";
import { join, extname, resolve } from "node:path";
import { errorMessage } from "../shared/errors.js";
import type { TtsrRule } from "../shared/types.js";

export type RuleLevel = TtsrRule["_source"]["level"];

export interface RuleFileRef {
  path: string;
  level: RuleLevel;
}

export interface FindRuleFilesOptions {
  pithHome: string;
  cwd: string;
  /** Problems reading a rules directory other than its absence (never fatal). */
  warn(msg: string): void;
  /** Which places are searched; default both (the project's only for a trusted folder). */
  levels?: readonly RuleLevel[];
}

const RULE_EXTENSIONS = new Set([".md", ".mdc"]);

function ruleFiles(dir: string, warn: (msg: string) => void): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && RULE_EXTENSIONS.has(extname(e.name).toLowerCase()))
      .map((e) => e.name)
      .sort();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") warn(`TTSR rules in ${dir} not read: ${errorMessage(err)}`);
    return [];
  }
}

/** Every candidate rule file, project directory first, each directory's names sorted. */
export function findRuleFiles(opts: FindRuleFilesOptions): RuleFileRef[] {
  const levels = opts.levels ?? ["project", "user"];
  const places = ([
    [resolve(opts.cwd, ".pith", "rules"), "project"],
    [resolve(opts.pithHome, "rules"), "user"],
  ] as Array<[string, RuleLevel]>).filter(([, level]) => levels.includes(level));
  const out: RuleFileRef[] = [];
  const dirs = new Set<string>();
  for (const [dir, level] of places) {
    if (dirs.has(dir)) continue;
    dirs.add(dir);
    for (const name of ruleFiles(dir, opts.warn)) out.push({ path: join(dir, name), level });
  }
  return out;
}
