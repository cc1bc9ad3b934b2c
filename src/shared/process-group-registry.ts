// A process-wide registry of the live child process groups pith started (every child runs
// detached, as the leader of its own group), so that exit kills them all, and the one way a
// group is ended: SIGTERM now, SIGKILL after a grace period, forgotten once killed.
import { signalProcessGroup } from "./process-group.js";

const live = new Set<number>();

/** Registers a new group, first forgetting groups that have since died (so a reused id is never killed). */
export function registerProcessGroup(pid: number): void {
  for (const old of live) if (!signalProcessGroup(old, 0)) live.delete(old);
  live.add(pid);
}

export function unregisterProcessGroup(pid: number): void {
  live.delete(pid);
}

/** Pids (= group ids) of the groups started and not yet reaped. */
export function liveProcessGroups(): number[] {
  return [...live];
}

/**
 * Ends what is left of a group: SIGTERM at once, SIGKILL after `graceMs` (a process that
 * ignores SIGTERM still dies); the group stays registered until then, so exit kills it too.
 */
export function endProcessGroup(pid: number, graceMs: number): void {
  if (!signalProcessGroup(pid, "SIGTERM")) {
    live.delete(pid);
    return;
  }
  const timer = setTimeout(() => {
    signalProcessGroup(pid, "SIGKILL");
    live.delete(pid);
  }, graceMs);
  timer.unref();
}

/** Sends SIGKILL to every registered group (synchronous: safe inside an exit handler). */
export function killAllProcessGroups(): void {
  for (const pid of live) {
    signalProcessGroup(pid, "SIGKILL");
    live.delete(pid);
  }
}
