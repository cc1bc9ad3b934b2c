// Where the built-in write/edit tools may write under a sandbox: the same roots bubblewrap makes
// writable (the cwd and `sandbox.writableRoots` in workspace-write mode, nothing in read-only
// mode). The path is judged where it really leads: symlinks followed (a symlinked file, a
// symlinked parent folder, a file not created yet under a symlinked folder, a dangling symlink),
// so `..` and links cannot step outside. The host's /tmp is not a root: sandboxed commands see
// a private /tmp, the tools would not.
import { PithError } from "../shared/errors.js";
import { protectedWriteReason } from "./protected-paths.js";
import { physicalPath } from "./real-path.js";
import { relativeInside } from "./path-pattern.js";
import type { SandboxMode } from "./sandbox/config.js";

export type WriteCheck = { ok: true; path: string } | { ok: false; reason: string };

export interface WriteRoots {
  mode: Exclude<SandboxMode, "off">;
  /** Resolved (physical) absolute folders. */
  roots: readonly string[];
  /** Physical paths inside the roots that stay read-only (protected-paths.ts). */
  protectedPaths?: readonly string[];
}

function inside(root: string, path: string): boolean {
  return path === root || relativeInside(root, path) !== undefined;
}

/**
 * Why a write may not land at physical path `real` (undefined when it may): the check itself,
 * also run by the confined file operations (shared/confined-fs.ts) on the path an open folder
 * handle really has, so a folder swapped for a link after this check cannot move the write.
 * `protectedNow` gives the paths inside the roots that stay read-only, as they are at that moment.
 */
export function writeRefusal(
  where: WriteRoots,
  protectedNow: () => readonly string[] = () => where.protectedPaths ?? [],
): (real: string, shown: string) => string | undefined {
  const label = `The sandbox (${where.mode})`;
  return (real, shown) => {
    if (where.mode === "read-only") return `${label} does not allow writing files: ${shown} was not written.`;
    if (where.roots.some((root) => inside(root, real))) return protectedWriteReason(real, protectedNow(), label);
    const via = real === shown ? "" : ` (it leads to ${real})`;
    return `${label} allows writing only inside ${where.roots.join(", ")}: ${shown}${via} is outside, so it was not written.`;
  };
}

/** Judges the absolute path a tool is about to write (as the tool resolved it). Never throws. */
export async function checkWritePath(absPath: string, where: WriteRoots): Promise<WriteCheck> {
  const label = `The sandbox (${where.mode})`;
  if (where.mode === "read-only") return { ok: false, reason: `${label} does not allow writing files: ${absPath} was not written.` };
  let real: string;
  try {
    real = await physicalPath(absPath);
  } catch (err) {
    return { ok: false, reason: `${label} could not resolve ${absPath} (${(err as Error).message}), so it was not written.` };
  }
  if (where.roots.some((root) => inside(root, real))) {
    const kept = protectedWriteReason(real, where.protectedPaths ?? [], label);
    return kept === undefined ? { ok: true, path: real } : { ok: false, reason: kept };
  }
  const via = real === absPath ? "" : ` (it leads to ${real} through a symbolic link)`;
  return { ok: false, reason: `${label} allows writing only inside ${where.roots.join(", ")}: ${absPath}${via} is outside, so it was not written.` };
}

/** The same check, throwing a PithError: for callers that prefer exceptions. */
export async function assertWritable(absPath: string, where: WriteRoots): Promise<string> {
  const verdict = await checkWritePath(absPath, where);
  if (!verdict.ok) throw new PithError("invalid_request", verdict.reason);
  return verdict.path;
}
