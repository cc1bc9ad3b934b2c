// `mkdir -p` that always returns. Node's recursive mkdir never settles for some paths (a parent
// under /proc, e.g. `/proc/self/nonexistent/x`), which would wedge the command or tool that asked
//. Here each missing directory is created on its own, from the deepest
// existing ancestor down, so a bad path fails at once with the system's error.
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";

/** The directories of `dir` (absolute) that do not exist yet, outermost first. */
function missing(dir: string, exists: (p: string) => boolean): string[] {
  const out: string[] = [];
  let cur = path.resolve(dir);
  while (!exists(cur)) {
    out.unshift(cur);
    const parent = path.dirname(cur);
    if (parent === cur) break;
    cur = parent;
  }
  return out;
}

const isEexist = (err: unknown) => (err as NodeJS.ErrnoException).code === "EEXIST";

export function makeDirsSync(dir: string): void {
  for (const d of missing(dir, (p) => fs.existsSync(p))) {
    try {
      fs.mkdirSync(d);
    } catch (err) {
      if (!isEexist(err)) throw err;
    }
  }
}

export async function makeDirs(dir: string): Promise<void> {
  for (const d of missing(dir, (p) => fs.existsSync(p))) {
    try {
      await fsp.mkdir(d);
    } catch (err) {
      if (!isEexist(err)) throw err;
    }
  }
}
