// A process-wide registry of live child process groups, so exit can kill them all (design §4.9).
import { signalProcessGroup } from "../../shared/process-group.js";

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

export { signalProcessGroup };

/** Sends SIGKILL to every registered group (synchronous: safe inside an exit handler). */
export function killAllProcessGroups(): void {
  for (const pid of live) {
    try {
      process.kill(-pid, "SIGKILL");
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
    }
    live.delete(pid);
  }
}
