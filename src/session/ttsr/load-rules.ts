// Finding rule files (engine §10.2): `<pithHome>/rules/*.md|.mdc` (level user) and
// `<cwd>/.pith/rules/*.md|.mdc` (level project). The project copy of a name wins over the user's.
import { readFileSync, readdirSync } from "node:fs";
import { basename, extname, join, resolve } from "node:path";
import { errorMessage } from "../../shared/errors.js";
import type { TtsrRule } from "../../shared/types.js";
import { parseRuleFile, type RuleLevel } from "./rule-file.js";

export interface LoadTtsrRulesOptions {
  pithHome: string;
  cwd: string;
  /** Problems with individual files (never fatal). */
  warn(msg: string): void;
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

function readRule(file: string, level: RuleLevel, warn: (msg: string) => void): TtsrRule | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    warn(`TTSR rule ${file} not read: ${errorMessage(err)}`);
    return undefined;
  }
  return parseRuleFile(basename(file, extname(file)), file, text, level, warn);
}

/** Every TTSR rule (rules with a condition) visible from `cwd`, first occurrence of a name kept. */
export function loadTtsrRules(opts: LoadTtsrRulesOptions): TtsrRule[] {
  const places: Array<[string, RuleLevel]> = [
    [resolve(opts.cwd, ".pith", "rules"), "project"],
    [resolve(opts.pithHome, "rules"), "user"],
  ];
  const rules: TtsrRule[] = [];
  const names = new Set<string>();
  const dirs = new Set<string>();
  for (const [dir, level] of places) {
    if (dirs.has(dir)) continue;
    dirs.add(dir);
    for (const name of ruleFiles(dir, opts.warn)) {
      const rule = readRule(join(dir, name), level, opts.warn);
      if (!rule || names.has(rule.name)) continue;
      names.add(rule.name);
      rules.push(rule);
    }
  }
  return rules;
}
