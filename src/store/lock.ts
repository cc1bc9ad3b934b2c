// Exclusive writer lock: `<file>.lock` created with O_EXCL holding the owner's pid.
import fs from "node:fs";
import { PithError, errorMessage } from "../shared/errors.js";
import { pidAlive } from "../shared/pid-alive.js";

/** Lock paths this process holds, released by `releaseAllLocks()` at exit. */
const held = new Set<string>();

function readOwner(lockPath: string): number | undefined {
  try {
    const n = Number.parseInt(fs.readFileSync(lockPath, "utf8").trim(), 10);
    return Number.isNaN(n) ? undefined : n;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PithError("io", `Cannot read session lock ${lockPath}: ${errorMessage(err)}`, { cause: err });
  }
}

function tryCreate(lockPath: string): boolean {
  try {
    const fd = fs.openSync(lockPath, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o644);
    try {
      fs.writeSync(fd, `${process.pid}\n`);
    } finally {
      fs.closeSync(fd);
    }
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new PithError("io", `Cannot create session lock ${lockPath}: ${errorMessage(err)}`, { cause: err });
  }
}

/**
 * Take the writer lock of `sessionPath`. A lock whose pid is dead (or is this process but not
 * held by it any more) is stale and taken over; a live owner → PithError("busy").
 */
export function acquireLock(sessionPath: string): string {
  const lockPath = `${sessionPath}.lock`;
  if (held.has(lockPath)) throw new PithError("busy", `Session file is locked: already open in this process (pid ${process.pid}): ${sessionPath}`);
  for (let attempt = 0; attempt < 3; attempt++) {
    if (tryCreate(lockPath)) {
      held.add(lockPath);
      return lockPath;
    }
    const owner = readOwner(lockPath);
    if (owner !== undefined && owner !== process.pid && pidAlive(owner)) throw lockedError(owner, sessionPath);
    unlinkQuiet(lockPath);
  }
  throw new PithError("busy", `Could not take the session lock after 3 attempts: ${sessionPath}`);
}

function lockedError(pid: number, sessionPath: string): PithError {
  return new PithError("busy", `Session file is locked by another pith process (pid ${pid}): ${sessionPath}`);
}

function unlinkQuiet(lockPath: string): void {
  try {
    fs.unlinkSync(lockPath);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") {
      throw new PithError("io", `Cannot remove session lock ${lockPath}: ${errorMessage(err)}`, { cause: err });
    }
  }
}

/** The live process holding the writer lock of `sessionPath` (this process included), if any. */
export function lockHolder(sessionPath: string): number | undefined {
  const lockPath = `${sessionPath}.lock`;
  if (held.has(lockPath)) return process.pid;
  const owner = readOwner(lockPath);
  return owner !== undefined && owner !== process.pid && pidAlive(owner) ? owner : undefined;
}

/** Release one lock taken by `acquireLock` (only if it still names this process). */
export function releaseLock(lockPath: string): void {
  if (!held.delete(lockPath)) return;
  if (readOwner(lockPath) === process.pid) unlinkQuiet(lockPath);
}

/** Synchronously release every lock this process holds; safe in a `process.on("exit")` hook. */
export function releaseAllLocks(): void {
  for (const lockPath of [...held]) {
    try {
      releaseLock(lockPath);
    } catch (err) {
      held.delete(lockPath);
      void err; // exiting: nothing left to report to
    }
  }
}
