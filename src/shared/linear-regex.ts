// Regular expressions written by users, projects, extensions or the model (rule conditions, glob
// patterns, grep patterns when ripgrep is absent) run on RE2 (the `re2js` package): its time is
// linear in the text, so no pattern can hold the process the way a backtracking engine can
// (`^(a|aa)+$` against "aaaa…!"). RE2 has no lookaround and no back-references: a pattern
// using them is refused when it is compiled, with a message saying so.
import { RE2JS } from "re2js";

export interface LinearRegex {
  /** The pattern as given. */
  readonly source: string;
  /** Whether the pattern matches anywhere in `text`. */
  test(text: string): boolean;
}

export interface LinearRegexFlags {
  ignoreCase?: boolean;
  multiline?: boolean;
  dotAll?: boolean;
}

const UNSUPPORTED: Array<[RegExp, string]> = [
  [/\(\?<?[=!]/, "lookaround ((?=…), (?!…), (?<=…), (?<!…))"],
  [/\\[1-9]|\\k</, "a back-reference (\\1, \\k<name>)"],
];

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Compiles `pattern` for RE2; throws an Error saying what RE2 cannot take. */
export function compileLinearRegex(pattern: string, flags: LinearRegexFlags = {}): LinearRegex {
  const bits = (flags.ignoreCase ? RE2JS.CASE_INSENSITIVE : 0) | (flags.multiline ? RE2JS.MULTILINE : 0) | (flags.dotAll ? RE2JS.DOTALL : 0);
  let re: RE2JS;
  try {
    re = RE2JS.compile(RE2JS.translateRegExp(pattern), bits);
  } catch (err) {
    const feature = UNSUPPORTED.find(([test]) => test.test(pattern));
    if (feature) throw new Error(`it uses ${feature[1]}, which the linear-time regex engine (RE2) cannot run`);
    throw new Error(`not a valid regular expression for the linear-time engine (RE2): ${errorText(err)}`);
  }
  return { source: pattern, test: (text) => re.test(text) };
}
