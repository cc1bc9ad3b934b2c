// Judging one path (a place a tool call declares it reads or writes, or a file a bash
// redirection writes) against path rules. A path has up to two spellings: as the tool resolves
// it, and where its symlinks lead. Deny and ask rules match when ANY spelling does (and, for a
// search, listing or rewrite over a folder, when they name a place inside it); allow rules must
// match EVERY spelling.
import type { ToolPath } from "../shared/tool-effect.js";
import { resolveToolPath } from "../shared/tool-paths.js";
import { matchPathPattern, type PathContext } from "./path-pattern.js";
import { physicalPath } from "./real-path.js";
import type { ParsedRule } from "./rule.js";
import type { RuleList } from "./types.js";

export interface JudgedPath {
  /** As the model wrote it. */
  raw: string;
  /** Absolute, as the tool resolves it, then where its symlinks lead (when different). */
  spellings: string[];
  scope: "file" | "tree";
}

/** A place a call acts on, both spellings; an unresolvable physical path keeps the first only. */
export async function judgedPath(place: ToolPath, ctx: PathContext): Promise<JudgedPath> {
  const abs = resolveToolPath(place.path, ctx.cwd, ctx.home);
  let real = abs;
  try {
    real = await physicalPath(abs);
  } catch {
    // A symlink loop or an unreadable folder: the tool will fail on it too; judge the path as written.
    real = abs;
  }
  return { raw: place.path, spellings: real === abs ? [abs] : [abs, real], scope: place.scope };
}

/** Whether `rule` (already known to apply to the tool) matches the path, read the way `list` reads. */
export async function pathRuleMatches(rule: ParsedRule, path: JudgedPath, list: RuleList, ctx: PathContext): Promise<boolean> {
  if (!rule.path) return true;
  const pattern = rule.path;
  if (list === "allow") {
    for (const p of path.spellings) if (!(await matchPathPattern(pattern, p, ctx, { scope: path.scope }))) return false;
    return true;
  }
  for (const p of path.spellings) if (await matchPathPattern(pattern, p, ctx, { scope: path.scope, reachesInto: true })) return true;
  return false;
}

/** `"x"` or `"x" (which leads to /real/x)`. */
export function describePath(path: JudgedPath): string {
  return path.spellings.length > 1 ? `"${path.raw}" (which leads to ${path.spellings[1]})` : `"${path.raw}"`;
}
