// Where the protected paths of the writable roots are right now (see ../protected-paths.ts for
// what is protected and why), read from the disk each time a sandboxed process starts, so the
// mounts follow the folder as it is:
//   - an existing file or folder is bound read-only onto itself;
//   - a missing one gets a stand-in (an empty folder; for git's `commondir`, a file saying ".",
//     which git reads as "this folder"; an empty file for the other git files) created by pith
//     before the sandbox starts and bound read-only, so nothing inside can create it;
//   - each folder between a root and a protected path (`.git` for `.git/config`) is bound onto
//     itself, writable: a mount point cannot be renamed or removed, so `mv .git x && mkdir .git`
//     cannot swap in a new git folder around the read-only entries;
//   - a symbolic link at a protected path is refused: the link could be replaced from inside,
//     and a mount would land on its target, not on the link.
import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { PithError } from "../../shared/errors.js";
import { relativeInside } from "../path-pattern.js";
import { PROTECTED_GIT_ENTRIES, PROTECTED_NAMES } from "../protected-paths.js";

export interface ProtectedEntry {
  /** Physical absolute path. */
  path: string;
  /** What it is on disk; for a missing path, what its stand-in is. */
  kind: "dir" | "file";
  exists: boolean;
  /** A stand-in file's content. */
  content?: string;
}

export interface ProtectionPlan {
  /** Bound read-only (existing, or once their stand-in exists), outermost first. */
  entries: ProtectedEntry[];
  /** Bound writable onto themselves so they cannot be renamed or removed, outermost first. */
  pinned: string[];
}

function within(parent: string, path: string): boolean {
  return path === parent || relativeInside(parent, path) !== undefined;
}

/** The deepest root holding `path`. */
function rootOf(path: string, roots: readonly string[]): string | undefined {
  return roots.filter((r) => within(r, path)).sort((a, b) => b.length - a.length)[0];
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The entry for `path` as it is on disk; `kind` and `content` describe its stand-in when missing. */
function inspect(path: string, kind: "dir" | "file", content?: string): ProtectedEntry {
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if (isMissing(err)) return { path, kind, exists: false, ...(content !== undefined ? { content } : {}) };
    throw new PithError("config", `The sandbox cannot inspect ${path} (${(err as Error).message}).`);
  }
  if (st.isSymbolicLink()) {
    throw new PithError(
      "config",
      `The sandbox cannot keep ${path} read-only: it is a symbolic link, which a sandboxed command could replace. ` +
        "Replace the link with the folder or file itself, or start pith without a sandbox (--sandbox off).",
    );
  }
  return { path, kind: st.isDirectory() ? "dir" : "file", exists: true };
}

class Planner {
  readonly found = new Map<string, ProtectedEntry>();
  private readonly gitDirs = new Set<string>();

  constructor(private readonly roots: readonly string[]) {}

  add(entry: ProtectedEntry): ProtectedEntry {
    this.found.set(entry.path, entry);
    return entry;
  }

  /** `<root>/.git`: missing (refused), a folder, or a pointer file to a git folder elsewhere. */
  git(root: string): void {
    const dotGit = inspect(join(root, ".git"), "dir");
    // A folder that is a repository (it has HEAD) keeps objects, refs and index writable.
    if (dotGit.exists && dotGit.kind === "dir" && existsSync(join(dotGit.path, "HEAD"))) return this.gitDir(dotGit.path);
    // Missing, or a folder that is no repository (a stand-in): kept whole, so `git init` is
    // refused there; a file: the pointer itself.
    this.add(dotGit);
    if (!dotGit.exists || dotGit.kind === "dir") return;
    const target = pointerTarget(dotGit.path);
    if (target !== undefined) this.gitDir(target);
  }

  /** A git folder inside a root: its protected entries, then its common folder's. */
  private gitDir(dir: string): void {
    if (this.gitDirs.has(dir) || rootOf(dir, this.roots) === undefined) return; // outside the roots it is read-only anyway
    this.gitDirs.add(dir);
    for (const name of PROTECTED_GIT_ENTRIES) {
      this.add(inspect(join(dir, name), name === "hooks" ? "dir" : "file", name === "commondir" ? ".\n" : name === "hooks" ? undefined : ""));
    }
    const common = readTrimmed(join(dir, "commondir"));
    if (common !== undefined && common !== "") {
      const real = realOrUndefined(resolve(dir, common));
      if (real !== undefined) this.gitDir(real);
    }
  }
}

function readTrimmed(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8").trim();
  } catch (err) {
    if (isMissing(err) || (err as NodeJS.ErrnoException).code === "EISDIR") return undefined;
    throw new PithError("config", `The sandbox cannot read ${path} (${(err as Error).message}).`);
  }
}

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw new PithError("config", `The sandbox cannot resolve ${path} (${(err as Error).message}).`);
  }
}

/** The git folder a `.git` file points to (`gitdir: <path>`, relative to the file's folder). */
function pointerTarget(file: string): string | undefined {
  const m = /^gitdir:\s*(.+)$/m.exec(readTrimmed(file) ?? "");
  return m ? realOrUndefined(resolve(dirname(file), m[1].trim())) : undefined;
}

/**
 * The protection of `roots` (physical folders) as the disk is now; `extra` are more folders kept
 * read-only when they lie inside a root (pith's own home). Throws a `config` PithError for a
 * protected path that is a symbolic link.
 */
export function planProtection(roots: readonly string[], extra: readonly string[] = []): ProtectionPlan {
  const p = new Planner(roots);
  for (const root of roots) {
    for (const name of PROTECTED_NAMES) p.add(inspect(join(root, name), "dir"));
    p.git(root);
  }
  for (const path of extra) if (rootOf(path, roots) !== undefined) p.add(inspect(path, "dir"));
  return normalize([...p.found.values()], roots);
}

const depth = (path: string) => path.split("/").length;

/** Drops entries inside other entries and pins inside entries; adds the pins; outermost first. */
function normalize(all: ProtectedEntry[], roots: readonly string[]): ProtectionPlan {
  const entries = all.filter((e) => !all.some((o) => o !== e && within(o.path, e.path))).sort((a, b) => depth(a.path) - depth(b.path));
  const pins = new Set<string>();
  for (const e of entries) {
    const root = rootOf(e.path, roots);
    if (root === undefined) continue;
    for (let dir = dirname(e.path); dir !== root && within(root, dir); dir = dirname(dir)) pins.add(dir);
  }
  const pinned = [...pins].filter((d) => !entries.some((e) => within(e.path, d))).sort((a, b) => depth(a) - depth(b));
  return { entries, pinned };
}
