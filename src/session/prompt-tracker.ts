// Which run consumed which prompting message, and how each one ended. Every accepted `prompt`,
// `steer`, `follow_up` (and queued `prompt`) gets a ticket whose outcome resolves exactly once,
// after all the work it caused has finished: the run that consumed it and every continuation
// that run caused (retry, compaction, TTSR, todo reminders). A message handed to a new run from
// the queue closes the tickets of the runs before it; an aborted chain reports `aborted`; a queued
// message that is dropped (new_session, switch_session) reports `aborted` too.
import { errorMessage } from "../shared/errors.js";
import type { AgentMessage, AssistantMessage } from "../shared/types.js";
import { isRetryableError } from "./retry-policy.js";

export type PromptStatus = "completed" | "aborted" | "error";

/** oh-my-pi's RpcPromptError: why a prompt ended in `error`. */
export interface PromptError {
  message: string;
  provider?: string;
  model?: string;
  httpStatus?: number;
  /** The failure is transient: sending the prompt again later may succeed (pith's own retries are spent). */
  retryable: boolean;
}

/** How one accepted prompting message ended. An object so that later fields can join it. */
export interface PromptOutcome {
  /** False when the message never reached a run (an extension command, a failed pre-flight). */
  agentInvoked: boolean;
  status: PromptStatus;
  error?: PromptError;
  /** The validated structured result, when the message carried an output schema. */
  output?: unknown;
}

/** A command id (`string | number`) or a host's tag; stamped on the run's agent_start/turn_start/agent_end. */
export type PromptId = string | number;

interface Ticket {
  promptId: PromptId | undefined;
  resolve(outcome: PromptOutcome): void;
}

export class PromptTracker {
  /** Messages waiting in a queue whose sender is owed an outcome. */
  private readonly queued = new Map<AgentMessage, Ticket>();
  /** Tickets whose message the run chain in progress consumed. */
  private current: Ticket[] = [];
  /** The reply that ends the chain's latest run, if it has one. */
  private lastReply: AssistantMessage | undefined;
  private runId: PromptId | undefined;
  /** The structured result of the run chain's latest run, merged into the next report. */
  private structured: { output: unknown } | { error: string } | undefined;

  /** The run that just ended produced a structured outcome (its senders get it with theirs). */
  setStructured(outcome: { output: unknown } | { error: string }): void {
    this.structured = outcome;
  }

  /** The id of the command whose message started the run in progress. */
  get runPromptId(): PromptId | undefined {
    return this.runId;
  }

  /** A prompt that starts a run chain now: its outcome follows the chain. */
  startChain(promptId: PromptId | undefined): Promise<PromptOutcome> {
    // Chains never overlap; should one be left open anyway, its senders still hear an answer.
    if (this.current.length > 0) this.report({ agentInvoked: true, status: "aborted" });
    const { ticket, outcome } = newTicket(promptId);
    this.current = [ticket];
    this.lastReply = undefined;
    this.runId = promptId;
    return outcome;
  }

  /** A message put on the steering or follow-up queue; its outcome follows the run that takes it. */
  queue(message: AgentMessage, promptId: PromptId | undefined): Promise<PromptOutcome> {
    const { ticket, outcome } = newTicket(promptId);
    this.queued.set(message, ticket);
    return outcome;
  }

  /** A run polled these messages from a queue: their senders share its outcome. */
  consumed(messages: AgentMessage[]): AgentMessage[] {
    for (const m of messages) {
      const ticket = this.queued.get(m);
      if (!ticket) continue;
      this.queued.delete(m);
      this.current.push(ticket);
    }
    return messages;
  }

  /**
   * Queued messages start a new run after the chain's work finished: the tickets so far are
   * reported with the last run's outcome, then the new run belongs to the first new message.
   */
  handOff(messages: AgentMessage[]): AgentMessage[] {
    this.report(this.outcomeOfLastRun());
    this.lastReply = undefined;
    const first = messages.map((m) => this.queued.get(m)).find((t) => t !== undefined);
    this.runId = first?.promptId;
    return this.consumed(messages);
  }

  /** A run of the chain ended with these added messages. */
  runEnded(added: AgentMessage[]): void {
    for (let i = added.length - 1; i >= 0; i--) {
      const m = added[i];
      if (m.role === "assistant") {
        this.lastReply = m;
        return;
      }
    }
  }

  /** The chain is over: aborted by the host, failed before any run, or finished on its own. */
  chainEnded(end: { aborted: boolean; error?: unknown; agentInvoked?: boolean }): void {
    if (end.error !== undefined) {
      this.report({ agentInvoked: end.agentInvoked ?? false, status: "error", error: { message: errorMessage(end.error), retryable: false } });
    } else if (end.aborted) this.report({ agentInvoked: true, status: "aborted" });
    else this.report(this.outcomeOfLastRun());
    this.lastReply = undefined;
    this.runId = undefined;
  }

  /** Queued messages were thrown away (new_session, switch_session): their senders hear `aborted`. */
  dropped(messages: AgentMessage[]): void {
    for (const m of messages) {
      const ticket = this.queued.get(m);
      if (!ticket) continue;
      this.queued.delete(m);
      ticket.resolve({ agentInvoked: false, status: "aborted" });
    }
  }

  private outcomeOfLastRun(): PromptOutcome {
    return outcomeOf(this.lastReply);
  }

  private report(base: PromptOutcome): void {
    const s = this.structured;
    this.structured = undefined;
    let outcome = base;
    if (s && base.status !== "aborted") {
      outcome = "output" in s ? { ...base, output: s.output } : { ...base, status: "error", error: { message: s.error, retryable: false } };
    }
    const tickets = this.current;
    this.current = [];
    for (const t of tickets) t.resolve(outcome);
  }
}

function newTicket(promptId: PromptId | undefined): { ticket: Ticket; outcome: Promise<PromptOutcome> } {
  let resolve!: (o: PromptOutcome) => void;
  const outcome = new Promise<PromptOutcome>((r) => (resolve = r));
  return { ticket: { promptId, resolve }, outcome };
}

/** The outcome a run's final reply stands for. */
export function outcomeOf(reply: AssistantMessage | undefined): PromptOutcome {
  if (reply?.stopReason === "aborted") return { agentInvoked: true, status: "aborted" };
  if (reply?.stopReason !== "error") return { agentInvoked: true, status: "completed" };
  return { agentInvoked: true, status: "error", error: promptError(reply) };
}

function promptError(reply: AssistantMessage): PromptError {
  const message = reply.errorMessage ?? "Provider request failed";
  const error: PromptError = { message, provider: reply.provider, model: reply.model, retryable: isRetryableError(reply) };
  const status = /^([1-5]\d\d)\b/.exec(message.trim());
  if (status) error.httpStatus = Number(status[1]);
  return error;
}
