// What a host needs to know about a session's liveness: when it went quiet after activity
// (`session_settled` / `agent_settled`), and what it is doing right now and since when it last
// heard from the provider or a tool (the heartbeat's phase and sinceActivityMs).
import type { AgentSessionEvent } from "../shared/types.js";
import type { PromptId } from "./prompt-tracker.js";

/** What the session is doing (the rpc front door adds `waiting_host` for host tools and dialogs). */
export type ActivityPhase = "idle" | "streaming" | "tool" | "retry_wait" | "compacting";

export interface ActivitySnapshot {
  phase: ActivityPhase;
  /** Milliseconds since the last event from the provider or a tool (or since the run began). */
  sinceActivityMs: number;
  /** The command whose message started the run in progress. */
  promptId?: PromptId;
}

export interface LivenessSource {
  isBusy(): boolean;
  isCompacting(): boolean;
  hasQueuedMessages(): boolean;
  runPromptId(): PromptId | undefined;
  emit(event: AgentSessionEvent): void;
  now?(): number;
}

/** Events that mean the provider or a tool just produced something. */
const ACTIVITY = new Set([
  "agent_start",
  "turn_start",
  "message_start",
  "message_update",
  "message_end",
  "tool_execution_start",
  "tool_execution_update",
  "tool_execution_end",
  "auto_compaction_start",
  "auto_compaction_end",
]);

export class Liveness {
  private lastActivity: number;
  private runningTools = 0;
  private retryWait = false;
  /** Activity since the last `session_settled`. */
  private active = false;
  private checking = false;
  private recheck = false;
  private checked: { promise: Promise<void>; resolve(): void } | undefined;

  constructor(private readonly o: LivenessSource) {
    this.lastActivity = this.now();
  }

  /** No run, retry wait, compaction or queued message. */
  get isSettled(): boolean {
    return !this.o.isBusy() && !this.o.isCompacting() && !this.o.hasQueuedMessages();
  }

  snapshot(): ActivitySnapshot {
    const sinceActivityMs = Math.max(0, Math.round(this.now() - this.lastActivity));
    const promptId = this.o.runPromptId();
    const base = { phase: this.phase(), sinceActivityMs };
    return promptId === undefined ? base : { ...base, promptId };
  }

  /** Every session event passes here before its subscribers see it. */
  observe(event: AgentSessionEvent): void {
    if (ACTIVITY.has(event.type)) this.lastActivity = this.now();
    switch (event.type) {
      case "agent_start":
        this.active = true;
        this.retryWait = false;
        this.runningTools = 0;
        break;
      case "tool_execution_start":
        this.runningTools++;
        break;
      case "tool_execution_end":
        this.runningTools = Math.max(0, this.runningTools - 1);
        break;
      case "agent_end":
        this.runningTools = 0;
        break;
      case "auto_retry_start":
        this.retryWait = true;
        break;
      case "auto_retry_end":
        this.retryWait = false;
        break;
      default:
    }
  }

  /** Something happened that a later `session_settled` must close (a prompt, a queued message). */
  markActive(): void {
    this.active = true;
    this.lastActivity = this.now();
  }

  /**
   * Emits `session_settled` and `agent_settled` if the session is quiet after activity. Waits two
   * macrotasks first, so that the prompt results of the run that just ended are written before it.
   */
  check(): void {
    if (this.checking) {
      this.recheck = true;
      return;
    }
    this.checking = true;
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    this.checked = { promise, resolve };
    const hop = (next: () => void) => setImmediate(next);
    const run = () =>
      hop(() =>
        hop(() => {
          if (this.recheck) {
            this.recheck = false;
            run();
            return;
          }
          this.checking = false;
          const checked = this.checked;
          this.checked = undefined;
          if (this.active && this.isSettled) {
            this.active = false;
            this.retryWait = false;
            this.o.emit({ type: "session_settled" });
            this.o.emit({ type: "agent_settled" });
          }
          checked?.resolve();
        }),
      );
    run();
  }

  /** Resolves once a pending settle check has run (at once when none is pending). */
  whenChecked(): Promise<void> {
    return this.checked?.promise ?? Promise.resolve();
  }

  private phase(): ActivityPhase {
    if (this.o.isCompacting()) return "compacting";
    if (!this.o.isBusy()) return "idle";
    if (this.retryWait) return "retry_wait";
    if (this.runningTools > 0) return "tool";
    return "streaming";
  }

  private now(): number {
    return this.o.now ? this.o.now() : Date.now();
  }
}
