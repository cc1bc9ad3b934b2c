// Rule conditions: regex strings, a leading PCRE-style `(?i)`/`(?ims)` flag group
// translated to flags, and file-glob-looking tokens turned into edit/write scopes. Conditions run
// on the linear-time engine (shared/linear-regex.ts): a rule file cannot hold the process, and a
// condition that engine cannot take (lookaround, back-references) is refused when it loads.
import { errorMessage } from "../shared/errors.js";
import { compileLinearRegex, type LinearRegex } from "../shared/linear-regex.js";

const INLINE_FLAGS = /^\(\?([ims]+)\)/;
/** Only path characters, and every `*` starts a path segment (so `foo.*` stays a regex). */
const GLOB_TOKEN = /^(?=.*\*)(?:[\w\-.{},?]|(?:^|(?<=[/*{,]))\*|\/)+$/;

/** Compiles one condition, or returns the reason it cannot run. */
export function compileCondition(pattern: string): LinearRegex | { error: string } {
  const m = INLINE_FLAGS.exec(pattern);
  const flags = m?.[1] ?? "";
  try {
    return compileLinearRegex(m ? pattern.slice(m[0].length) : pattern, {
      ignoreCase: flags.includes("i"),
      multiline: flags.includes("m"),
      dotAll: flags.includes("s"),
    });
  } catch (err) {
    return { error: errorMessage(err) };
  }
}

/** True when `compileCondition` succeeded. */
export function isCompiled(c: LinearRegex | { error: string }): c is LinearRegex {
  return !("error" in c);
}

/**
 * An upper bound on how many characters a match (lookaheads included) can read, or undefined when
 * unbounded. Conservative: any repetition (`*`, `+`, `{`), `^`, `\b`/`\B`, back-references and
 * lookbehind/named groups count as unbounded. Every other atom spends at least one source character
 * per input character, so the source length is a safe bound (no `u` flag is ever set).
 */
export function maxMatchLength(regex: LinearRegex): number | undefined {
  const src = regex.source;
  let inClass = false;
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === "\\") {
      const next = src[i + 1] ?? "";
      if (next === "b" || next === "B" || /[1-9k]/.test(next)) return undefined;
      i++;
    } else if (inClass) {
      if (c === "]") inClass = false;
    } else if (c === "[") inClass = true;
    else if (c === "*" || c === "+" || c === "{" || c === "^" || src.startsWith("(?<", i)) return undefined;
  }
  return inClass ? undefined : src.length;
}

/** True when a condition token is a file glob like `*.rs` or `src/**\/x.ts`, not a regex. */
export function looksLikeGlob(token: string): boolean {
  return GLOB_TOKEN.test(token);
}

/** Trimmed, non-empty, de-duplicated strings from a string or a list; undefined when none. */
export function stringList(value: unknown): string[] | undefined {
  const raw = typeof value === "string" ? [value] : Array.isArray(value) ? value : [];
  const tokens = raw.filter((v): v is string => typeof v === "string").map((v) => v.trim()).filter((v) => v !== "");
  return tokens.length > 0 ? [...new Set(tokens)] : undefined;
}

/**
 * Conditions and scope as a rule declares them, with glob tokens rewritten: each becomes scope
 * `tool:edit(<glob>)` + `tool:write(<glob>)` and contributes the catch-all condition `.*`.
 */
export function expandGlobConditions(conditions: string[], scope: string[]): { condition: string[]; scope: string[] } {
  const condition: string[] = [];
  const outScope = [...scope];
  for (const token of conditions) {
    if (!looksLikeGlob(token)) {
      condition.push(token);
      continue;
    }
    condition.push(".*");
    outScope.push(`tool:edit(${token})`, `tool:write(${token})`);
  }
  return { condition: [...new Set(condition)], scope: [...new Set(outScope)] };
}
