// Filesystem operations the built-in tools use, injected so hosts/tests can substitute them.
import { constants, readFile as readFileCb, readFileSync, statSync, promises as fsp } from "node:fs";
import { promisify } from "node:util";
import { confinedFs, type WriteRefusal } from "../../shared/confined-fs.js";
import { makeDirs } from "../../shared/make-dirs.js";

// The callback readFile is several times faster than fs.promises.readFile on Node 20.
const readFileAsync = promisify(readFileCb);
/**
 * A regular file up to this size is read synchronously: one stat and one read on the main thread
 * (a tenth of a millisecond) instead of four round trips through the thread pool (open, fstat,
 * read, close), each a wake-up of the event loop. Anything else (bigger files, FIFOs, devices,
 * missing paths) takes the asynchronous path and never blocks the loop.
 */
const SYNC_READ_MAX = 256 * 1024;

function readFileFast(path: string): Promise<Buffer> {
  try {
    const st = statSync(path, { throwIfNoEntry: false });
    if (st?.isFile() && st.size <= SYNC_READ_MAX) return Promise.resolve(readFileSync(path));
  } catch (err) {
    // a path that cannot be stat'ed or read here gets the asynchronous read's own error
    void err;
  }
  return readFileAsync(path);
}

export interface FsStat {
  isFile: boolean;
  isDirectory: boolean;
  size: number;
  mtimeMs: number;
}

export interface FsDirEntry {
  name: string;
  isDirectory: boolean;
  isFile: boolean;
  isSymbolicLink: boolean;
}

export interface FsOps {
  readFile(path: string): Promise<Buffer>;
  writeFile(path: string, data: string | Buffer): Promise<void>;
  /** Resolves undefined when the path does not exist. */
  stat(path: string): Promise<FsStat | undefined>;
  readdir(path: string): Promise<FsDirEntry[]>;
  mkdir(path: string): Promise<void>;
  /** True when the path exists and is readable and writable. */
  access(path: string, mode: "read" | "write"): Promise<boolean>;
  /** Removes a file (hashline `delete`, `move`). */
  unlink?(path: string): Promise<void>;
  /** Renames a file (hashline `move`). */
  rename?(from: string, to: string): Promise<void>;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** The real filesystem. */
export function createNodeFsOps(): FsOps {
  return {
    readFile: (p) => readFileFast(p),
    writeFile: (p, data) => fsp.writeFile(p, data),
    async stat(p) {
      try {
        const s = await fsp.stat(p);
        return { isFile: s.isFile(), isDirectory: s.isDirectory(), size: s.size, mtimeMs: s.mtimeMs };
      } catch (err) {
        if (isMissing(err)) return undefined;
        throw err;
      }
    },
    async readdir(p) {
      const entries = await fsp.readdir(p, { withFileTypes: true });
      return entries.map((e) => ({
        name: e.name,
        isDirectory: e.isDirectory(),
        isFile: e.isFile(),
        isSymbolicLink: e.isSymbolicLink(),
      }));
    },
    async mkdir(p) {
      await makeDirs(p);
    },
    unlink: (p) => fsp.unlink(p),
    rename: (from, to) => fsp.rename(from, to),
    async access(p, mode) {
      try {
        await fsp.access(p, mode === "read" ? constants.R_OK : constants.R_OK | constants.W_OK);
        return true;
      } catch (err) {
        if (isMissing(err) || (err as NodeJS.ErrnoException).code === "EACCES") return false;
        throw err;
      }
    },
  };
}

/**
 * `base` with every write, folder creation, rename and delete confined by `refuse` through
 * verified folder handles (shared/confined-fs.ts): what the write, edit, hashline, notebook and
 * ast_edit tools use under a sandbox, so a folder swapped for a link while they run cannot move
 * a write outside the writable roots.
 */
export function confineFsOps(base: FsOps, refuse: WriteRefusal): FsOps {
  const confined = confinedFs(refuse);
  return { ...base, writeFile: confined.writeFile, mkdir: confined.mkdir, unlink: confined.unlink, rename: confined.rename };
}
