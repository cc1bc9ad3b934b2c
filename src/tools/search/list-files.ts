// Listing files below a root (respecting ignore files), by `rg --files` or the built-in walker.
import type { FsOps } from "../ops/fs-ops.js";
import { RG_WALK_FLAGS, runRipgrep } from "./ripgrep.js";
import { comparePaths, walkFiles } from "./walker.js";

export interface ListQuery {
  root: string;
  /** Keeps a relative path when it returns true. */
  accept: (rel: string) => boolean;
  signal?: AbortSignal;
}

/** Accepted files, relative to root, sorted with `comparePaths`. */
export async function listFiles(q: ListQuery, backend: { fs: FsOps; rgPath: string | null; env?: Record<string, string> }): Promise<string[]> {
  const out: string[] = [];
  if (backend.rgPath) {
    await runRipgrep({
      rgPath: backend.rgPath,
      args: ["--files", "--no-messages", ...RG_WALK_FLAGS],
      cwd: q.root,
      signal: q.signal,
      env: backend.env,
      onLine(line) {
        const rel = line.replace(/^\.\//, "");
        if (q.accept(rel)) out.push(rel);
        return true;
      },
    });
  } else {
    for await (const rel of walkFiles(q.root, { fs: backend.fs, signal: q.signal })) if (q.accept(rel)) out.push(rel);
    if (q.signal?.aborted) throw new Error("Operation aborted");
  }
  return out.sort(comparePaths);
}
