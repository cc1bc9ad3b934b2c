// Where a path really leads: symlinks followed the way the kernel follows them when the file is
// opened or created, also for a file that does not exist yet (under a symlinked folder, or a
// dangling symlink that creating the file would follow).
import { promises as fsp } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

const MAX_LINKS = 40;

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * The physical path of absolute `path`. Existing prefixes go through `realpath`; a missing last
 * part is appended as is, unless it is a dangling symlink, whose target is followed in turn.
 * Throws on a symlink loop (ELOOP) and on errors other than "missing".
 */
export async function physicalPath(path: string, links = 0): Promise<string> {
  if (links > MAX_LINKS) throw Object.assign(new Error(`Too many levels of symbolic links: ${path}`), { code: "ELOOP" });
  try {
    return await fsp.realpath(path);
  } catch (err) {
    if (!isMissing(err)) throw err;
  }
  const parent = dirname(path);
  if (parent === path) return path;
  const realParent = await physicalPath(parent, links);
  const candidate = join(realParent, basename(path));
  const target = await readLinkIfAny(candidate);
  return target === undefined ? candidate : physicalPath(resolve(realParent, target), links + 1);
}

async function readLinkIfAny(path: string): Promise<string | undefined> {
  try {
    return await fsp.readlink(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "EINVAL" || isMissing(err)) return undefined;
    throw err;
  }
}
