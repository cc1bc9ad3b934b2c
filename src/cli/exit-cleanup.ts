// What pith made for its sessions that must not outlive the process, removed by the process
// "exit" handler even when pith is stopped by a signal: sandbox folders, the sessions' private
// temp folders (spill files, shell state), and the sandbox's stand-ins for protected paths.
// A session that closes normally removes its own first.
import { rmSync } from "node:fs";
import { removeAllStandInsSync } from "../policy/index.js";

const live = new Set<string>();

/** `dir` is removed at exit unless `forgetAtExit(dir)` comes first. */
export function removeAtExit(dir: string): void {
  live.add(dir);
}

export function forgetAtExit(dir: string): void {
  live.delete(dir);
}

/** The "exit" handler's clean-up; never throws (at exit there is no one left to tell). */
export function removeLeftoversSync(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // the folder stays in the OS temp folder
    }
  }
  live.clear();
  removeAllStandInsSync();
}
