// Owns the life of agent runs: one AbortController per run, the busy flag, and the chain
// of automatic continuations after `agent_end` (retry, compaction, todo reminders, TTSR,
// queued messages). `abort()` bumps a generation so every scheduled continuation dies.
import type { AgentMessage, AssistantMessage } from "../shared/types.js";
import { lastAssistant } from "../shared/types.js";
import { errorMessage } from "../shared/errors.js";

/** What to do after a run ended: stop, or start another run with these prompt messages. */
export type Continuation = { kind: "stop" } | { kind: "continue"; prompts: AgentMessage[] };

export interface RunHooks {
  /** Runs the agent loop once; resolves when `agent_end` was emitted. */
  runLoop(prompts: AgentMessage[], signal: AbortSignal): Promise<AgentMessage[]>;
  /** Decides the continuation after a run that was not aborted by the host. */
  afterRun(lastAssistant: AssistantMessage | undefined, runSignal: AbortSignal): Promise<Continuation>;
  /** A failure outside the loop (a bug): reported, never thrown at the host. */
  onInternalError(message: string): void;
  /** A chain is over (before the busy flag drops): aborted by the host, failed in `prepare`, or done. */
  chainEnded?(end: { aborted: boolean; error?: unknown }): void;
  /** Nothing is in flight any more. */
  idle?(): void;
}

export class RunController {
  private controller: AbortController | undefined;
  private generation = 0;
  private inFlight = 0;
  private settledWaiters: (() => void)[] = [];

  constructor(private readonly hooks: RunHooks) {}

  /** True from the moment a prompt is accepted until every continuation has settled. */
  get isBusy(): boolean {
    return this.inFlight > 0;
  }

  /** The signal of the run in progress (aborted when the host aborts). */
  get signal(): AbortSignal | undefined {
    return this.controller?.signal;
  }

  /**
   * Marks the session busy synchronously, then runs `prepare` (pre-flight work that may
   * throw) and the run chain. Resolves when everything settled; rejects only if `prepare` threw.
   */
  start(prepare: (signal: AbortSignal) => Promise<AgentMessage[]>): Promise<void> {
    this.inFlight++;
    const generation = this.generation;
    const controller = new AbortController();
    this.controller = controller;
    let failure: { error: unknown } | undefined;
    const done = (async () => {
      try {
        const prompts = await prepare(controller.signal);
        if (generation !== this.generation) return;
        await this.runChain(prompts, controller, generation);
      } catch (error) {
        failure = { error };
        throw error;
      } finally {
        const aborted = generation !== this.generation || this.controller?.signal.aborted === true;
        this.hooks.chainEnded?.(failure ? { aborted, error: failure.error } : { aborted });
        if (this.controller === controller) this.controller = undefined;
        this.inFlight--;
        if (this.inFlight === 0) this.notifySettled();
      }
    })();
    return done;
  }

  private async runChain(prompts: AgentMessage[], controller: AbortController, generation: number): Promise<void> {
    let next: AgentMessage[] | undefined = prompts;
    let current = controller;
    while (next) {
      let added: AgentMessage[] = [];
      try {
        added = await this.hooks.runLoop(next, current.signal);
      } catch (err) {
        this.hooks.onInternalError(errorMessage(err));
        return;
      }
      if (generation !== this.generation || current.signal.aborted) return;
      const last = lastAssistant(added);
      let decision: Continuation;
      try {
        decision = await this.hooks.afterRun(last, current.signal);
      } catch (err) {
        this.hooks.onInternalError(errorMessage(err));
        return;
      }
      if (decision.kind === "stop" || generation !== this.generation) return;
      next = decision.prompts;
      if (current.signal.aborted) return;
      // Each continuation is its own run with a fresh controller; abort reaches it.
      current = new AbortController();
      this.controller = current;
    }
  }

  /** Cancels continuations and the running run; resolves when everything settled. */
  async abort(): Promise<void> {
    this.generation++;
    this.controller?.abort();
    await this.whenIdle();
  }

  /** Resolves when nothing is in flight. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  /** Wraps work that must count as busy without a run (e.g. a manual compaction's run-free phase). */
  async busy<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight++;
    try {
      return await work();
    } finally {
      this.inFlight--;
      if (this.inFlight === 0) this.notifySettled();
    }
  }

  private notifySettled(): void {
    this.hooks.idle?.();
    const waiters = this.settledWaiters.splice(0);
    for (const w of waiters) w();
  }
}

