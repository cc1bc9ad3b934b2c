// Project context files (pi): `AGENTS.md`, else `CLAUDE.md`, from the pith home
// directory, then from every directory from the filesystem root down to cwd (one per directory).
import { promises as fsp } from "node:fs";
import { dirname, join, parse, resolve } from "node:path";

export const CONTEXT_FILE_NAMES = ["AGENTS.md", "CLAUDE.md"] as const;

export interface ContextFile {
  /** Absolute path of the file. */
  path: string;
  content: string;
}

async function readIfFile(path: string): Promise<string | undefined> {
  try {
    const st = await fsp.stat(path);
    if (!st.isFile()) return undefined;
    return await fsp.readFile(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR" || code === "EACCES") return undefined;
    throw err;
  }
}

/** The context file of one directory: AGENTS.md preferred over CLAUDE.md. */
export async function contextFileIn(dir: string): Promise<ContextFile | undefined> {
  for (const name of CONTEXT_FILE_NAMES) {
    const path = join(dir, name);
    const content = await readIfFile(path);
    if (content !== undefined) return { path, content };
  }
  return undefined;
}

/** Directories from the filesystem root down to `cwd`, inclusive. */
export function ancestorsRootFirst(cwd: string): string[] {
  const dirs: string[] = [];
  let dir = resolve(cwd);
  const root = parse(dir).root;
  while (true) {
    dirs.push(dir);
    if (dir === root) break;
    dir = dirname(dir);
  }
  return dirs.reverse();
}

/** Global file first, then root-to-cwd; a directory is read once even if it is also pithHome. */
export async function discoverContextFiles(opts: { cwd: string; pithHome?: string }): Promise<ContextFile[]> {
  const dirs = opts.pithHome ? [resolve(opts.pithHome), ...ancestorsRootFirst(opts.cwd)] : ancestorsRootFirst(opts.cwd);
  const seen = new Set<string>();
  const out: ContextFile[] = [];
  for (const dir of dirs) {
    if (seen.has(dir)) continue;
    seen.add(dir);
    const file = await contextFileIn(dir);
    if (file) out.push(file);
  }
  return out;
}
