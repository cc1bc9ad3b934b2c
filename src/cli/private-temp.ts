// Where long tool outputs are spilled (the `bash` tool's and the `bash` command's full output)
// and the `bash` command keeps its shell state: a folder per user, `<os temp>/pith-<uid>`, that
// only the user can enter (0700, owned by them; a folder of that name that is a link or belongs
// to someone else is never used), and in it one folder per session, removed when the session
// closes and, for those still there, when pith exits (also on SIGINT/SIGTERM). Files in it are
// created 0600 and never through an existing path.
import { chmodSync, lstatSync, mkdirSync, mkdtempSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { userInfo } from "node:os";
import path from "node:path";
import { forgetAtExit, removeAtExit } from "./exit-cleanup.js";

function currentUser(): { uid: number | undefined; name: string } {
  const uid = process.getuid?.();
  return { uid, name: uid !== undefined ? String(uid) : userInfo().username.replace(/[^A-Za-z0-9_.-]/g, "_") };
}

/** Whether `dir` is a real folder of `uid` (a link or someone else's folder is not). */
function ownFolder(dir: string, uid: number | undefined): boolean | "missing" {
  let st;
  try {
    st = lstatSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw err;
  }
  if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) return false;
  if ((st.mode & 0o077) !== 0) chmodSync(dir, 0o700);
  return true;
}

/**
 * The user's private temp folder under `base`, made if missing. When `<base>/pith-<uid>` is taken
 * (a link, another user's folder) a fresh `pith-<uid>-XXXXXX` is made instead and `warn` says so.
 */
export function userTempDir(base: string, warn: (message: string) => void): string {
  const { uid, name } = currentUser();
  const dir = path.join(base, `pith-${name}`);
  for (let attempt = 0; attempt < 2; attempt++) {
    const own = ownFolder(dir, uid);
    if (own === true) return dir;
    if (own === false) break;
    try {
      mkdirSync(dir, { mode: 0o700 });
      return dir;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err; // made meanwhile: look again
    }
  }
  const fresh = mkdtempSync(`${dir}-`);
  warn(`pith: ${dir} is not a private folder of this user; using ${fresh} for tool output files`);
  return fresh;
}

export interface SessionTemp {
  dir: string;
  /** Removes the folder and everything in it. */
  release(): Promise<void>;
}

/** A new private folder for one session inside the user's folder. */
export async function sessionTempDir(userDir: string): Promise<SessionTemp> {
  const dir = await mkdtemp(path.join(userDir, "session-"));
  removeAtExit(dir);
  return {
    dir,
    release: async () => {
      forgetAtExit(dir);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
