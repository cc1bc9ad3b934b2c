// File globs from settings, rule files, extensions and tool calls, matched on the linear-time
// regex engine (linear-regex.ts): a glob becomes an RE2 pattern, so `**/a/**/a/**/…/b` cannot
// hold the process the way a backtracking translation of it can. Two dialects:
// - `glob`: the usual one (`*` within a path segment, `?`, `[…]`, `**` across folders,
//   `{a,b}` and `{1..3}` alternatives, a leading `!` negates);
// - `gitignore`: gitignore's rules (a pattern with no inner `/` matches at any depth, a leading
//   `/` anchors, a trailing `/` matches only what is inside, a match on a folder covers
//   everything inside it; no braces).
import { compileLinearRegex } from "./linear-regex.js";

export interface GlobOptions {
  ignoreCase?: boolean;
  /** A glob with no `/` is matched against the path's last segment (`*.ts` matches `src/a.ts`). */
  basename?: boolean;
}

const META = /[.*+?^${}()|[\]\\/]/;
const esc = (c: string) => (META.test(c) ? `\\${c}` : c);

/** The RE2 text of a `[…]` class starting at `i`, and the index after it; undefined when unterminated. */
function charClass(glob: string, i: number): [string, number] | undefined {
  let j = i + 1;
  let out = "[";
  if (glob[j] === "!" || glob[j] === "^") {
    out += "^";
    j++;
  }
  const first = j;
  for (; j < glob.length; j++) {
    const c = glob[j];
    if (c === "]" && j > first) return [`${out}]`, j + 1];
    if (c === "[" && glob[j + 1] === ":") {
      const end = glob.indexOf(":]", j + 2);
      if (end === -1) return undefined;
      out += glob.slice(j, end + 2);
      j = end + 1;
    } else if (c === "\\" && j + 1 < glob.length) out += `\\${glob[++j]}`;
    else out += c === "-" ? "-" : esc(c);
  }
  return undefined;
}

/** The index of the `}` closing the `{` at `i`, and the top-level comma-separated parts. */
function braceParts(glob: string, i: number): [string[], number] | undefined {
  let depth = 0;
  let start = i + 1;
  const parts: string[] = [];
  for (let j = i; j < glob.length; j++) {
    const c = glob[j];
    if (c === "\\") j++;
    else if (c === "{") depth++;
    else if (c === "}" && --depth === 0) return [[...parts, glob.slice(start, j)], j];
    else if (c === "," && depth === 1) {
      parts.push(glob.slice(start, j));
      start = j + 1;
    }
  }
  return undefined;
}

function braceAlternatives(glob: string, i: number): [string[], number] | undefined {
  const found = braceParts(glob, i);
  if (!found) return undefined;
  const [parts, end] = found;
  if (parts.length > 1) return [parts, end];
  const range = /^(-?\d+)\.\.(-?\d+)$/.exec(parts[0]);
  if (!range) return undefined;
  const [a, b] = [Number(range[1]), Number(range[2])];
  if (Math.abs(b - a) > 1000) return undefined;
  const step = a <= b ? 1 : -1;
  const out: string[] = [];
  for (let n = a; n !== b + step; n += step) out.push(String(n));
  return [out, end];
}

/** `**` standing alone as a path segment. */
function globstarAt(glob: string, i: number): boolean {
  return glob.startsWith("**", i) && (i === 0 || glob[i - 1] === "/") && (i + 2 === glob.length || glob[i + 2] === "/");
}

/** The RE2 text of a glob; `gitignore`: no braces, and a trailing `/**` matches only what is inside. */
function translate(glob: string, gitignore: boolean): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === "\\" && i + 1 < glob.length) out += esc(glob[++i]);
    else if (c === "/" && glob.slice(i + 1) === "**") {
      out += gitignore ? "/.*" : "(?:/.*)?";
      break;
    } else if (globstarAt(glob, i)) {
      if (glob[i + 2] === "/") {
        out += "(?:.*/)?";
        i += 2;
      } else {
        out += ".*";
        i += 1;
      }
    } else if (c === "*") {
      out += "[^/]*";
      while (glob[i + 1] === "*") i++;
    } else if (c === "?") out += "[^/]";
    else if (c === "[" && charClass(glob, i)) {
      const [cls, next] = charClass(glob, i) as [string, number];
      out += cls;
      i = next - 1;
    } else if (c === "{" && !gitignore && braceAlternatives(glob, i)) {
      const [parts, end] = braceAlternatives(glob, i) as [string[], number];
      out += `(?:${parts.map((p) => translate(p, false)).join("|")})`;
      i = end;
    } else out += esc(c);
  }
  return out;
}

/** A matcher for `glob` over `/`-separated paths; throws when the glob cannot be compiled. */
export function compileLinearGlob(glob: string, opts: GlobOptions = {}): (path: string) => boolean {
  const negated = glob.startsWith("!") && !glob.startsWith("!(");
  const body = negated ? glob.slice(1) : glob;
  const re = compileLinearRegex(`^${translate(body, false)}$`, { ignoreCase: opts.ignoreCase });
  const onBase = opts.basename === true && !body.includes("/");
  return (path) => {
    const subject = onBase ? path.slice(path.lastIndexOf("/") + 1) : path;
    return re.test(subject) !== negated;
  };
}

/** A matcher for one gitignore pattern over paths relative to its folder (no leading `/`). */
export function compileGitignoreGlob(pattern: string, opts: { ignoreCase?: boolean } = {}): (path: string) => boolean {
  let p = pattern.replace(/(?<!\\) +$/, "");
  if (p === "" || p.startsWith("#")) return () => false;
  if (p.startsWith("!")) return () => false;
  if (p.startsWith("\\#") || p.startsWith("\\!")) p = p.slice(1);
  const insideOnly = p.endsWith("/");
  if (insideOnly) p = p.replace(/\/+$/, "");
  const anchored = p.includes("/");
  p = p.replace(/^\/+/, "");
  const prefix = anchored ? "^" : "^(?:.*/)?";
  const suffix = insideOnly ? "/.*$" : "(?:/.*)?$";
  const re = compileLinearRegex(`${prefix}${translate(p, true)}${suffix}`, { ignoreCase: opts.ignoreCase });
  return (path) => re.test(path);
}
