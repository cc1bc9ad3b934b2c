// Path arguments of the built-in tools live in shared (the policy layer reads them too).
import type { ToolPath } from "../shared/tool-effect.js";
import { searchPathArg } from "../shared/tool-paths.js";

export { pathArg } from "../shared/tool-effect.js";
export { normalisePathArg, resolveSearchPath, resolveToolPath } from "../shared/tool-paths.js";

/** What grep and find walk: the tree at their `path` (absent, or `/` alone: the cwd). */
export function searchPaths(args: Record<string, unknown>): ToolPath[] {
  const raw = args.path;
  if (raw !== undefined && typeof raw !== "string") return [];
  return [{ path: searchPathArg(raw), scope: "tree" }];
}
