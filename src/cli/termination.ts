// SIGINT and SIGTERM end pith promptly, whatever a run is doing: the graceful path (abort the
// runs, flush what was written) gets a deadline, after which the process group children are
// killed, session locks released and the process exits anyway.
import { releaseAllLocks } from "../session/index.js";
import { killAllProcessGroups } from "../tools/ops/process-groups.js";

/** How long the graceful path may take after a signal before pith exits regardless. */
export const TERMINATION_DEADLINE_MS = 1500;

export function exitOnSignals(graceful: () => Promise<unknown>, deadlineMs = TERMINATION_DEADLINE_MS): void {
  let exiting = false;
  const exit = (code: number) => {
    if (exiting) return;
    exiting = true;
    killAllProcessGroups();
    releaseAllLocks();
    process.exit(code);
  };
  const onSignal = (code: number) => {
    setTimeout(() => exit(code), deadlineMs);
    void graceful().finally(() => exit(code));
  };
  process.once("SIGINT", () => onSignal(130));
  process.once("SIGTERM", () => onSignal(143));
}
