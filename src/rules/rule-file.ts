// One rule file → one TtsrRule: front-matter keys, the body as content, glob
// conditions expanded, invalid regexes and unreachable scopes reported and dropped.
import { errorMessage } from "../shared/errors.js";
import { compileLinearGlob } from "../shared/linear-glob.js";
import type { TtsrRule } from "../shared/types.js";
import { compileCondition, expandGlobConditions, isCompiled, stringList } from "./condition.js";
import { parseFrontmatter, type FrontmatterValue } from "./frontmatter.js";
import { isReachable, parseScope, splitScopeString } from "./scope.js";

export type RuleLevel = TtsrRule["_source"]["level"];

const INTERRUPT_MODES = new Set(["never", "prose-only", "tool-only", "always"]);

function scopeTokens(value: FrontmatterValue | undefined): string[] {
  if (typeof value === "string") return splitScopeString(value);
  return stringList(value) ?? [];
}

/**
 * Builds the TTSR rule of a file, or undefined when the file has no condition (a plain rule),
 * cannot be parsed, or is left with nothing to match (each of the last two is warned about).
 */
export function parseRuleFile(name: string, filePath: string, text: string, level: RuleLevel, warn: (msg: string) => void): TtsrRule | undefined {
  let data: Record<string, FrontmatterValue>;
  let body: string;
  try {
    ({ data, body } = parseFrontmatter(text));
  } catch (err) {
    warn(`TTSR rule ${filePath} skipped: ${errorMessage(err)}`);
    return undefined;
  }
  const declared = stringList(data.condition ?? data.ttsr_trigger ?? data.ttsrTrigger);
  if (!declared) return undefined;
  const expanded = expandGlobConditions(declared, scopeTokens(data.scope));
  const condition = expanded.condition.filter((pattern) => {
    const compiled = compileCondition(pattern);
    if (isCompiled(compiled)) return true;
    warn(`TTSR rule ${filePath}: condition ${JSON.stringify(pattern)} refused: ${compiled.error}; ignored`);
    return false;
  });
  if (condition.length === 0) {
    warn(`TTSR rule ${filePath} skipped: no valid condition`);
    return undefined;
  }
  const scope = parseScope(expanded.scope, (token) => warn(`TTSR rule ${filePath}: scope token ${JSON.stringify(token)} is not valid; ignored`));
  if (!isReachable(scope)) {
    warn(`TTSR rule ${filePath} skipped: its scope excludes every stream`);
    return undefined;
  }
  const rule: TtsrRule = {
    name,
    path: filePath,
    content: body.trim(),
    condition,
    _source: { provider: "native", providerName: "pith", path: filePath, level },
  };
  if (expanded.scope.length > 0) rule.scope = expanded.scope;
  const globs = stringList(data.globs)?.filter((glob) => {
    try {
      compileLinearGlob(glob);
      return true;
    } catch (err) {
      warn(`TTSR rule ${filePath}: glob ${JSON.stringify(glob)} refused: ${errorMessage(err)}; ignored`);
      return false;
    }
  });
  if (globs && globs.length > 0) rule.globs = globs;
  if (typeof data.description === "string") rule.description = data.description;
  if (typeof data.alwaysApply === "boolean") rule.alwaysApply = data.alwaysApply;
  const mode = data.interruptMode;
  if (typeof mode === "string" && INTERRUPT_MODES.has(mode)) rule.interruptMode = mode as TtsrRule["interruptMode"];
  else if (mode !== undefined && mode !== null) warn(`TTSR rule ${filePath}: interruptMode ${JSON.stringify(mode)} is not one of never, prose-only, tool-only, always; ignored`);
  return rule;
}
