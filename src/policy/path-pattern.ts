// The specifier of a path rule (`read(...)`, `edit(...)`, `write(...)`, `grep(...)`, `find(...)`,
// `ls(...)`): a gitignore-style glob (Claude Code's Read/Edit semantics), anchored by its start:
// - `~/x`       under the home folder;
// - `/x`, `//x` absolute (`//` is Claude Code's spelling; pith also reads a single `/` as the
//               file system root, since pith has no single settings file to be relative to);
// - `./x`       under the cwd, anchored there;
// - `x`         under the cwd, gitignore rules: with no `/` inside it matches at any depth
//               (`*.env`, `.env`), with one it is anchored (`src/**`).
// A path outside a rule's root never matches it. Matching follows the gitignore spec on the
// linear-time regex engine (shared/linear-glob.ts), loaded on first use: no rule can hold the process.
import { isAbsolute, join, relative, sep } from "node:path";

export interface PathPattern {
  /** Where the glob is rooted. */
  root: "cwd" | "home" | "fs";
  /** The glob, relative to the root, `/`-anchored when the spelling anchors it. */
  glob: string;
  /** True when the glob names one place (a `/` inside it, or an anchoring prefix). */
  anchored: boolean;
}

export interface PathContext {
  cwd: string;
  home: string;
}

/** Compiles a path specifier; throws with a message naming the problem. */
export function compilePathPattern(specifier: string): PathPattern {
  const spec = specifier.trim();
  if (spec === "") throw new Error("the path is empty");
  if (spec === "~") return { root: "home", glob: "/**", anchored: true };
  if (spec.startsWith("~/")) return anchoredAt("home", spec.slice(2));
  if (spec.startsWith("/")) return anchoredAt("fs", spec.replace(/^\/+/, ""));
  if (spec.startsWith("./")) return anchoredAt("cwd", spec.slice(2));
  if (spec.startsWith("~")) throw new Error(`"~user" paths are not supported: write the absolute path`);
  return { root: "cwd", glob: spec, anchored: spec.replace(/\/+$/, "").includes("/") };
}

function anchoredAt(root: PathPattern["root"], rest: string): PathPattern {
  const glob = rest.replace(/^\/+/, "");
  return { root, glob: glob === "" ? "/**" : `/${glob}`, anchored: true };
}

export function rootDir(pattern: PathPattern, ctx: PathContext): string {
  return pattern.root === "cwd" ? ctx.cwd : pattern.root === "home" ? ctx.home : "/";
}

/** The path relative to `root` in `/` form, or undefined when it is the root itself or outside it. */
export function relativeInside(root: string, path: string): string | undefined {
  const rel = relative(root, path);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  return rel.split(sep).join("/");
}

type Ignore = { ignores(path: string): boolean };

const matchers = new Map<string, Ignore>();

/** The gitignore matcher of a glob, on the linear-time regex engine (case-insensitive, as the `ignore` package matches). */
async function matcherFor(glob: string): Promise<Ignore> {
  let m = matchers.get(glob);
  if (!m) {
    const { compileGitignoreGlob } = await import("../shared/linear-glob.js");
    const test = compileGitignoreGlob(glob, { ignoreCase: true });
    m = { ignores: test };
    if (matchers.size > 1000) matchers.clear();
    matchers.set(glob, m);
  }
  return m;
}

/** A name no glob spells out, two levels deep: matching it means "everything in the folder". */
const PROBE = "\u2063pith-probe\u2063/\u2063pith-probe\u2063";

/**
 * Whether an absolute path matches. With `scope: "tree"` (a search or listing over a folder)
 * the folder matches when the glob covers it or everything inside it; with `reachesInto` a
 * folder also matches when an anchored glob names a place inside it (`ls ~` against
 * `read(~/.ssh/**)`), which is what deny and ask rules use.
 */
export async function matchPathPattern(
  pattern: PathPattern,
  path: string,
  ctx: PathContext,
  opts: { scope?: "file" | "tree"; reachesInto?: boolean } = {},
): Promise<boolean> {
  const root = rootDir(pattern, ctx);
  const rel = relativeInside(root, path);
  const m = await matcherFor(pattern.glob);
  if (rel !== undefined && m.ignores(rel)) return true;
  if (opts.scope !== "tree") return false;
  const inRoot = rel !== undefined || path === root;
  if (inRoot && m.ignores(rel === undefined ? PROBE : `${rel}/${PROBE}`)) return true;
  if (!opts.reachesInto || !pattern.anchored) return false;
  const base = staticBase(pattern.glob);
  const target = base === undefined ? root : join(root, base);
  return target === path || relativeInside(path, target) !== undefined;
}

/** The literal folder part of an anchored glob (`/.ssh/**` → `.ssh`), undefined when it starts with a wildcard. */
function staticBase(glob: string): string | undefined {
  const parts = glob.replace(/^\//, "").split("/");
  const literal: string[] = [];
  for (const part of parts) {
    if (/[*?[\]\\!]/.test(part)) break;
    literal.push(part);
  }
  return literal.length === 0 ? undefined : literal.join("/");
}

/** A path as a glob that matches exactly it (gitignore specials escaped). */
export function escapeGlob(path: string): string {
  return path
    .replace(/[\\*?[\]]/g, (c) => `\\${c}`)
    .replace(/^([#!])/, "\\$1")
    .replace(/ $/, "\\ ");
}
