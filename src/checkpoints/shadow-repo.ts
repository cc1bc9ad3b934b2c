// Where a cwd's checkpoints live, and creating that place once.
//
// <home>/checkpoints/<basename>-<sha256(realpath cwd) 16 hex>/
//   cwd           the folder these checkpoints cover (for people)
//   repo/         the shadow GIT_DIR: objects, refs/pith/checkpoints/<id>, info/, and config
//                 (written once: its mtime is the repository's birth)
//   indexes/      one index file per session (a stat cache: only changed files are re-hashed)
//   last-prune    touched when retention last ran
//   prune.lock    held while retention runs
//
// The repository is built in a temporary folder and renamed into place, so two processes
// starting at once end up sharing one complete repository. Its config turns off everything
// that could touch files behind pith's back or make two writers race: hooks, fsmonitor,
// automatic gc/maintenance, reflogs; `info/attributes` switches off end-of-line conversion,
// filters and ident expansion (blobs hold the exact bytes); `info/exclude` prunes node_modules.
import { createHash, randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { appendFile, mkdir, realpath, rename, rm, writeFile } from "node:fs/promises";
import { basename, isAbsolute, join, relative, resolve, sep } from "node:path";
import { spawnGit } from "./git-runner.js";

export interface ShadowLayout {
  /** The project folder, resolved through symlinks. */
  workTree: string;
  root: string;
  gitDir: string;
  indexDir: string;
  pruneStamp: string;
  pruneLock: string;
  /** Work-tree-relative folders that are never covered beyond node_modules (pith's home when it lies inside the cwd). */
  extraExcludes: string[];
}

export async function shadowLayout(home: string, cwd: string): Promise<ShadowLayout> {
  const workTree = await realpath(cwd);
  const key = `${slug(basename(workTree))}-${createHash("sha256").update(workTree).digest("hex").slice(0, 16)}`;
  const root = join(resolve(home), "checkpoints", key);
  const realHome = await realpath(home).catch(() => resolve(home));
  const homeRel = relative(workTree, realHome);
  const homeInside = homeRel !== "" && !homeRel.startsWith("..") && !isAbsolute(homeRel);
  return {
    workTree,
    root,
    gitDir: join(root, "repo"),
    indexDir: join(root, "indexes"),
    pruneStamp: join(root, "last-prune"),
    pruneLock: join(root, "prune.lock"),
    extraExcludes: homeInside ? [homeRel.split(sep).join("/")] : [],
  };
}

function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^\.+/, "").slice(0, 40) || "root";
}

/**
 * Appended to the config `git init` wrote (so its probes of the file system — filemode,
 * symlinks, ignorecase, precomposeunicode — stand; later keys win).
 */
const CONFIG = `[core]
\tbare = false
\tautocrlf = false
\tsafecrlf = false
\tquotePath = false
\thooksPath = /dev/null
\tfsmonitor = false
\tuntrackedCache = false
\tlogAllRefUpdates = false
\tsparseCheckout = false
[gc]
\tauto = 0
\tautoDetach = false
[maintenance]
\tauto = false
[repack]
	writeBitmaps = false
[commit]
\tgpgSign = false
[index]
\tthreads = true
[advice]
\tdetachedHead = false
`;

/** Blobs keep the exact bytes of each file: no eol conversion, no filters, no ident, no re-encoding. */
const ATTRIBUTES = "* -text -ident -filter -working-tree-encoding !eol\n";

function excludeFile(layout: ShadowLayout): string {
  const lines = ["# written by pith: never covered by checkpoints", "node_modules", ...layout.extraExcludes.map((p) => `/${p}/`)];
  return lines.join("\n") + "\n";
}

export interface InitContext {
  gitPath: string;
  pathEnv: string;
  timeoutMs: number;
}

/** Creates the shadow repository when it does not exist yet; safe to race with other processes. */
export async function ensureShadowRepo(layout: ShadowLayout, ctx: InitContext): Promise<void> {
  if (existsSync(join(layout.gitDir, "HEAD"))) return;
  await mkdir(layout.root, { recursive: true });
  await mkdir(layout.indexDir, { recursive: true });
  await writeFile(join(layout.root, "cwd"), layout.workTree + "\n");
  const tmp = join(layout.root, `repo.tmp-${randomBytes(6).toString("hex")}`);
  try {
    const env = { PATH: ctx.pathEnv, HOME: layout.root, XDG_CONFIG_HOME: layout.root, LC_ALL: "C", GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" };
    await spawnGit(ctx.gitPath, ["init", "--bare", "--quiet", "--template=", tmp], { cwd: layout.root, env, timeoutMs: ctx.timeoutMs });
    await appendFile(join(tmp, "config"), CONFIG);
    await mkdir(join(tmp, "info"), { recursive: true });
    await writeFile(join(tmp, "info", "attributes"), ATTRIBUTES);
    await writeFile(join(tmp, "info", "exclude"), excludeFile(layout));
    await renameUnlessPresent(tmp, layout.gitDir);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Another process may have won the race: its repository is as good as ours. */
async function renameUnlessPresent(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if ((code === "ENOTEMPTY" || code === "EEXIST") && existsSync(join(to, "HEAD"))) return;
    throw err;
  }
}

/** Pathspecs every scan and restore adds, so node_modules and pith's home stay out even when a .gitignore re-includes them. */
export function excludePathspecs(layout: ShadowLayout): string[] {
  return [
    ":(exclude,glob)**/node_modules",
    ":(exclude,glob)**/node_modules/**",
    ...layout.extraExcludes.flatMap((p) => [`:(exclude,literal)${p}`]),
  ];
}

/** A file name for a session's index: the id itself when it is a safe name, else its hash. */
export function sessionIndexName(sessionId: string): string {
  if (/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(sessionId) && !sessionId.endsWith(".tmp")) return sessionId;
  return `h-${createHash("sha256").update(sessionId).digest("hex").slice(0, 32)}`;
}
