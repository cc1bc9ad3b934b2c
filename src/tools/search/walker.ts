// The built-in file walker used when ripgrep is absent: hidden files included, `.git` skipped,
// symlinks not followed, `.gitignore` / `.ignore` / `.rgignore` honoured (each applies below its
// own directory), entries visited in name order so output matches `rg --sort path`.
import ignore, { type Ignore } from "ignore";
import { join } from "node:path";
import type { FsOps } from "../ops/fs-ops.js";

const IGNORE_FILES = [".gitignore", ".ignore", ".rgignore"];

interface Matcher {
  /** Directory of the ignore file, relative to the root ("" for the root). */
  dir: string;
  ig: Ignore;
}

export interface WalkOptions {
  fs: FsOps;
  signal?: AbortSignal;
  /** Honour ignore files (default true). */
  gitignore?: boolean;
}

/** Compares relative paths component-wise, the order `rg --sort path` uses. */
export function comparePaths(a: string, b: string): number {
  const pa = a.split("/");
  const pb = b.split("/");
  for (let i = 0; i < Math.min(pa.length, pb.length); i++) {
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return pa.length - pb.length;
}

async function loadMatcher(fs: FsOps, absDir: string, relDir: string): Promise<Matcher | undefined> {
  let ig: Ignore | undefined;
  for (const name of IGNORE_FILES) {
    const st = await fs.stat(join(absDir, name));
    if (!st?.isFile) continue;
    ig ??= ignore();
    ig.add((await fs.readFile(join(absDir, name))).toString("utf8"));
  }
  return ig ? { dir: relDir, ig } : undefined;
}

function isIgnored(matchers: Matcher[], rel: string, isDir: boolean): boolean {
  for (const m of matchers) {
    const sub = m.dir ? rel.slice(m.dir.length + 1) : rel;
    if (m.ig.ignores(isDir ? `${sub}/` : sub)) return true;
  }
  return false;
}

/** Yields every file below `root` as a path relative to it, in sorted order. */
export async function* walkFiles(root: string, opts: WalkOptions): AsyncGenerator<string> {
  const useIgnore = opts.gitignore !== false;
  async function* visit(absDir: string, relDir: string, matchers: Matcher[]): AsyncGenerator<string> {
    if (opts.signal?.aborted) return;
    const own = useIgnore ? await loadMatcher(opts.fs, absDir, relDir) : undefined;
    const active = own ? [...matchers, own] : matchers;
    let entries;
    try {
      entries = await opts.fs.readdir(absDir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "EACCES" || code === "EPERM" || code === "ENOENT") return; // unreadable: rg skips it too
      throw err;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const e of entries) {
      if (e.name === ".git" || e.isSymbolicLink) continue;
      const rel = relDir ? `${relDir}/${e.name}` : e.name;
      if (!e.isDirectory && !e.isFile) continue;
      if (useIgnore && isIgnored(active, rel, e.isDirectory)) continue;
      if (e.isDirectory) yield* visit(join(absDir, e.name), rel, active);
      else yield rel;
    }
  }
  yield* visit(root, "", []);
}
