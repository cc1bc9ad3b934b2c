// What stays read-only inside a writable root under the sandbox: the files that run code or set
// policy the next time pith, Claude Code or git starts there, outside any sandbox. A model that
// could write them would escape at the user's next start or `git commit`:
//   <root>/.pith/  <root>/.claude/  <root>/.mcp.json        project settings, extensions, agents, MCP servers
//   <root>/.git/{config,config.worktree,commondir,hooks/}   what git runs (fsmonitor, hooks, the config it reads)
//   <root>/.git (when missing: `git init` there is refused; when a file: the pointer itself and
//               the same four entries of the git folder and common folder it points to)
// Everything else in `.git` (objects, refs, index, HEAD) stays writable, so `git add` and
// `git commit` work. `protectedWriteReason` is the one rule both the bubblewrap mounts and the
// file tools' write guard apply.
import { relativeInside } from "./path-pattern.js";

/** Folders and files at the top of every writable root. */
export const PROTECTED_NAMES: readonly string[] = [".pith", ".claude", ".mcp.json"];

/** Entries of a git folder that decide what git runs. */
export const PROTECTED_GIT_ENTRIES: readonly string[] = ["config", "config.worktree", "commondir", "hooks"];

function within(parent: string, path: string): boolean {
  return path === parent || relativeInside(parent, path) !== undefined;
}

/**
 * Why the sandbox refuses to write the physical path `path`, or undefined when it may: it is one
 * of `protectedPaths` (as listed by the sandbox's protection plan) or lies inside one.
 */
export function protectedWriteReason(path: string, protectedPaths: readonly string[], label: string): string | undefined {
  const hit = protectedPaths.find((p) => within(p, path));
  if (hit === undefined) return undefined;
  const what = hit === path ? path : `${path} (inside ${hit})`;
  return (
    `${label} keeps ${what} read-only: project settings, extensions, agents, MCP servers and git's ` +
    "configuration and hooks run code outside the sandbox later, so it was not written."
  );
}
