// Whether a process id names a live process (signal 0 probes without signalling): for lock files
// that hold their writer's pid, so a lock left by a dead process can be taken over.

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
