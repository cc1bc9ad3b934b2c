// The one way file tools and checkpoint restores write, create, rename and delete files when
// writes are confined (a sandbox's writable roots): no check-then-write window. The folder a file
// goes in is opened first; the path the kernel gives that open handle (`/proc/self/fd/<fd>`) is
// where the folder really is, whatever symbolic links led there and whatever is swapped for a link
// afterwards, and it is judged by `refuse`. The file itself is then opened, created, renamed or
// removed through the handle (`/proc/self/fd/<fd>/<name>`) with O_NOFOLLOW, so a link swapped in
// for the last part is not followed either (a link that was there is followed by hand, its
// target judged the same way). Missing folders are created one by one under verified handles.
// Where /proc/self/fd does not exist (not Linux) the path is judged just before the operation.
import { constants, existsSync, promises as fsp } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";

/** Judges the physical path a write would land at (`shown`: the path as the caller gave it): undefined when allowed, else why not. */
export type WriteRefusal = (realPath: string, shown: string) => string | undefined;

export interface ConfinedFs {
  /** Writes the file (`mode`: set its permission bits, as a checkpoint restore does for executables). */
  writeFile(path: string, data: string | Buffer, mode?: number): Promise<void>;
  /** Creates a symbolic link at `path` pointing to `target` (the target is not followed). */
  symlink(target: string, path: string): Promise<void>;
  /** Creates the folder and its missing parents. */
  mkdir(path: string): Promise<void>;
  unlink(path: string): Promise<void>;
  rmdir(path: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

const PROC = existsSync("/proc/self/fd");
const MAX_LINKS = 40;

export class WriteRefusedError extends Error {
  readonly code = "EACCES";
}

interface OpenDir {
  handle: fsp.FileHandle;
  real: string;
  /** `/proc/self/fd/<fd>/<name>`: the entry `name` inside this very folder. */
  entry(name: string): string;
}

function codeOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

export function confinedFs(refuse: WriteRefusal): ConfinedFs {
  const check = (real: string, shown: string) => {
    const why = refuse(real, shown);
    if (why !== undefined) throw new WriteRefusedError(why);
  };

  /** Opens folder `path` (creating it and missing parents when `create`) and verifies where it really is. */
  async function openDir(path: string, create: boolean): Promise<OpenDir> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(path, constants.O_RDONLY | constants.O_DIRECTORY);
    } catch (err) {
      if (!create || codeOf(err) !== "ENOENT" || dirname(path) === path) throw err;
      const parent = await openDir(dirname(path), true);
      try {
        await fsp.mkdir(parent.entry(basename(path))).catch((e: unknown) => {
          if (codeOf(e) !== "EEXIST") throw e;
        });
        handle = await fsp.open(parent.entry(basename(path)), constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
      } finally {
        await parent.handle.close();
      }
    }
    const fdPath = `/proc/self/fd/${handle.fd}`;
    let real: string;
    try {
      real = await fsp.readlink(fdPath);
      check(real, path);
    } catch (err) {
      await handle.close();
      throw err;
    }
    return { handle, real, entry: (name) => `${fdPath}/${name}` };
  }

  /** Runs `act` on the entry `basename(path)` of the verified folder `dirname(path)`, the entry's own path judged too. */
  async function inDir<T>(path: string, create: boolean, act: (dir: OpenDir, name: string) => Promise<T>): Promise<T> {
    const dir = await openDir(dirname(path), create);
    try {
      check(join(dir.real, basename(path)), path);
      return await act(dir, basename(path));
    } finally {
      await dir.handle.close();
    }
  }

  async function writeFile(path: string, data: string | Buffer, mode: number | undefined, links = 0): Promise<void> {
    const next = await inDir(path, false, async (dir, name) => {
      let file: fsp.FileHandle;
      try {
        file = await fsp.open(dir.entry(name), constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW, 0o666);
      } catch (err) {
        if (codeOf(err) !== "ELOOP") throw err;
        // The last part is a symbolic link: follow it by hand, its target judged like any path.
        return resolve(dir.real, await fsp.readlink(dir.entry(name)));
      }
      try {
        await file.writeFile(data);
        if (mode !== undefined) await file.chmod(mode);
      } finally {
        await file.close();
      }
      return undefined;
    });
    if (next === undefined) return;
    if (links >= MAX_LINKS) throw Object.assign(new Error(`Too many levels of symbolic links: ${path}`), { code: "ELOOP" });
    return writeFile(next, data, mode, links + 1);
  }

  if (!PROC) return judgedFirst(refuse);
  return {
    writeFile: (path, data, mode) => writeFile(path, data, mode),
    symlink: (target, path) => inDir(path, false, (dir, name) => fsp.symlink(target, dir.entry(name))),
    mkdir: async (path) => (await openDir(path, true)).handle.close(),
    unlink: (path) => inDir(path, false, (dir, name) => fsp.unlink(dir.entry(name))),
    rmdir: (path) => inDir(path, false, (dir, name) => fsp.rmdir(dir.entry(name))),
    rename: (from, to) =>
      inDir(from, false, (src, a) => inDir(to, false, (dst, b) => fsp.rename(src.entry(a), dst.entry(b)))),
  };
}

/** Without /proc/self/fd: the folder's real path is judged just before each operation. */
function judgedFirst(refuse: WriteRefusal): ConfinedFs {
  const judge = async (path: string) => {
    const real = resolve(await fsp.realpath(dirname(path)), basename(path));
    const why = refuse(real, path);
    if (why !== undefined) throw new WriteRefusedError(why);
  };
  return {
    writeFile: async (p, d, mode) => {
      await judge(p);
      await fsp.writeFile(p, d);
      if (mode !== undefined) await fsp.chmod(p, mode);
    },
    symlink: async (t, p) => (await judge(p), fsp.symlink(t, p)),
    mkdir: async (p) => {
      await fsp.mkdir(p, { recursive: true });
      await judge(p);
    },
    unlink: async (p) => (await judge(p), fsp.unlink(p)),
    rmdir: async (p) => (await judge(p), fsp.rmdir(p)),
    rename: async (a, b) => (await judge(a), await judge(b), fsp.rename(a, b)),
  };
}
