// Signalling a whole process group (children run detached, as group leaders).

/** Sends `signal` to the group led by `pid`; false when the group no longer exists. */
export function signalProcessGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw err;
  }
}
