// Where sessions live: the one interface through which the session opens, creates and lists
// session files. Opening takes the file's writer lock (a second opener gets a "busy" error);
// `close()` on the log releases it. The JSONL implementation below keeps one file per session;
// a later backend (a database shared by several machines) implements the same interface.
import { existsSync } from "node:fs";
import { makeDirsSync } from "../shared/make-dirs.js";
import { findMostRecentSession } from "./layout.js";
import type { SessionLog } from "./session-log.js";
import { SessionStore } from "./session-store.js";

export interface SessionStorage {
  /** A new session, written lazily (on the first reply) into `dir`; in memory when `dir` is undefined. */
  create(options: { dir: string | undefined; cwd: string; parentSession?: string }): SessionLog;
  /** A new session at exactly `filePath`, which must not exist yet. */
  createAt(filePath: string, options: { cwd: string }): SessionLog;
  /** Loads an existing session and takes its writer lock. Missing file → "not_found"; locked → "busy". */
  open(filePath: string, options: { cwd: string; readOnly?: boolean }): SessionLog;
  /** Whether `filePath` names an existing session file location. */
  exists(filePath: string): boolean;
  /** The most recently modified session of `dir` (for `--continue`), if any. */
  mostRecent(dir: string): string | undefined;
}

/** Session files as append-only JSONL trees (spec/engine.md §1). */
export function createJsonlStorage(): SessionStorage {
  return {
    create({ dir, cwd, parentSession }) {
      if (dir === undefined) return SessionStore.inMemory({ cwd, parentSession });
      makeDirsSync(dir);
      return SessionStore.create({ sessionDir: dir, cwd, parentSession });
    },
    createAt: (filePath, { cwd }) => SessionStore.createAt(filePath, { cwd }),
    open: (filePath, options) => SessionStore.open(filePath, options),
    exists: (filePath) => existsSync(filePath),
    mostRecent: (dir) => findMostRecentSession(dir),
  };
}
