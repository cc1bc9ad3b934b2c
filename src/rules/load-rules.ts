// Loading rule files: `<pithHome>/rules/*.md|.mdc` (level user) and
// `<cwd>/.pith/rules/*.md|.mdc` (level project). The project copy of a name wins over the user's.
import { readFileSync } from "node:fs";
import { basename, extname } from "node:path";
import { errorMessage } from "../shared/errors.js";
import type { TtsrRule } from "../shared/types.js";
import { parseRuleFile } from "./rule-file.js";
import { findRuleFiles, type FindRuleFilesOptions, type RuleFileRef } from "./rule-files.js";

export type LoadTtsrRulesOptions = FindRuleFilesOptions;

function readRule(ref: RuleFileRef, warn: (msg: string) => void): TtsrRule | undefined {
  let text: string;
  try {
    text = readFileSync(ref.path, "utf8");
  } catch (err) {
    warn(`TTSR rule ${ref.path} not read: ${errorMessage(err)}`);
    return undefined;
  }
  return parseRuleFile(basename(ref.path, extname(ref.path)), ref.path, text, ref.level, warn);
}

/** The rules of files already found by `findRuleFiles`, first occurrence of a name kept. */
export function readTtsrRules(files: RuleFileRef[], warn: (msg: string) => void): TtsrRule[] {
  const rules: TtsrRule[] = [];
  const names = new Set<string>();
  for (const ref of files) {
    const rule = readRule(ref, warn);
    if (!rule || names.has(rule.name)) continue;
    names.add(rule.name);
    rules.push(rule);
  }
  return rules;
}

/** Every TTSR rule (rules with a condition) visible from `cwd`, first occurrence of a name kept. */
export function loadTtsrRules(opts: LoadTtsrRulesOptions): TtsrRule[] {
  return readTtsrRules(findRuleFiles(opts), opts.warn);
}
