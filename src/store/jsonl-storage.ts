// Session files as append-only JSONL trees in folders (PITH_HOME/sessions/<cwd-slug>/ by
// default): the default SessionStorage. A session's reference is its file's absolute path.
import { existsSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import path from "node:path";
import { makeDirsSync } from "../shared/make-dirs.js";
import { deleteSessionFile } from "./delete-session.js";
import { findMostRecentSession, resolveSessionArg, sessionDirFor } from "./layout.js";
import { listSessions, listSessionsWatched, projectDirsOf } from "./session-list.js";
import { SessionStore } from "./session-store.js";
import type { SessionStorage, SessionTail } from "./storage.js";

/** Session files as append-only JSONL trees. */
export function createJsonlStorage(): SessionStorage {
  return {
    kind: "jsonl",
    create({ dir, cwd, parentSession }) {
      if (dir === undefined) return SessionStore.inMemory({ cwd, parentSession });
      makeDirsSync(dir);
      return SessionStore.create({ sessionDir: dir, cwd, parentSession });
    },
    createAt: (filePath, { cwd }) => SessionStore.createAt(filePath, { cwd }),
    open: (filePath, options) => SessionStore.open(filePath, options),
    exists: (filePath) => existsSync(filePath),
    mostRecent: (dir) => findMostRecentSession(dir),
    dirFor: (pithHome, cwd) => sessionDirFor(pithHome, cwd),
    resolve: (ref, cwd) => path.resolve(cwd, ref),
    find: (arg, o) => resolveSessionArg(arg, o.dir, o.cwd, o.pithHome === undefined ? undefined : path.join(o.pithHome, "sessions")),
    list(q) {
      const dirs = q.all ? [...projectDirsOf(path.join(q.all.pithHome, "sessions")), ...q.dirs] : q.dirs;
      // a host's picker lists the same folders again and again: watch them rather than restat
      return listSessionsWatched({ dirs, limit: q.limit, cursor: q.cursor, query: q.query });
    },
    newestWithMessages: async (dir) => newestWithMessages(dir),
    inDir: (ref, dir) => path.dirname(ref) === path.resolve(dir),
    delete: (ref, cwd) => deleteSessionFile(ref, cwd),
    readTail: (ref, fromByte) => readFileTail(ref, fromByte),
  };
}

function newestWithMessages(dir: string): string | undefined {
  let cursor: string | undefined;
  for (;;) {
    const page = listSessions({ dirs: [dir], limit: 200, cursor });
    const hit = page.sessions.find((s) => s.messageCount > 0);
    if (hit) return hit.path;
    if (page.nextCursor === undefined) return undefined;
    cursor = page.nextCursor;
  }
}

/**
 * The file's complete lines from `fromByte`: only whole lines (cut at the last LF, a byte, so the
 * cut never splits a UTF-8 character), so a reader polling a growing file never sees half a line.
 * An offset past the end (the file was replaced) restarts from 0 with `reset`.
 */
async function readFileTail(file: string, fromByte: number): Promise<SessionTail> {
  let start = Number.isFinite(fromByte) ? Math.max(0, Math.trunc(fromByte)) : 0;
  let size: number;
  try {
    size = (await stat(file)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    return { text: "", fromByte: start, nextByte: start, reset: false };
  }
  let reset = false;
  if (start > size) {
    start = 0;
    reset = true;
  }
  let buf = Buffer.alloc(0);
  if (start < size) {
    const fh = await open(file, "r");
    try {
      buf = Buffer.alloc(size - start);
      const { bytesRead } = await fh.read(buf, 0, buf.length, start);
      buf = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }
  const complete = buf.subarray(0, buf.lastIndexOf(0x0a) + 1);
  return { text: complete.toString("utf8"), fromByte: start, nextByte: start + complete.length, reset };
}
