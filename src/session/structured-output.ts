// Structured results: a prompting message may carry an output schema. The run that
// message starts offers `submit_result`, is told to finish with it, ends right after a valid
// call, is reminded (at most MAX_REMINDERS times) when it stops without one, and its outcome
// carries the validated data or the reason there is none.
import type { AgentMessage, AssistantMessage, DeveloperMessage } from "../shared/types.js";
import { createSubmitResultTool, SUBMIT_RESULT, type OutputSpec, type SubmittedResult } from "../tools/index.js";
import type { Tool } from "../tools/types.js";

export const MAX_REMINDERS = 3;

/** How a structured prompt ended: the data, or why there is none. */
export type StructuredOutcome = { output: unknown } | { error: string };

interface Active {
  spec: OutputSpec;
  tool: Tool;
  submitted?: SubmittedResult;
  reminders: number;
}

export interface StructuredOutputOptions {
  /** Records the outcome in the session file. */
  record(outcome: StructuredOutcome): void;
}

function developer(text: string): DeveloperMessage {
  return { role: "developer", content: text, attribution: "agent", timestamp: Date.now() };
}

function instruction(spec: OutputSpec): DeveloperMessage {
  const schema = JSON.stringify(spec.schema);
  return developer(
    `When you have finished, you MUST call the ${SUBMIT_RESULT} tool exactly once: {"result": {"data": <your answer>}} where the data matches this JSON Schema: ${schema}. ` +
      `If the task cannot be done, call it with {"result": {"error": "<why>"}}. Do not put the answer in plain text.`,
  );
}

function reminder(n: number): DeveloperMessage {
  return developer(
    `<system-reminder>\nYou stopped without calling ${SUBMIT_RESULT}. This is reminder ${n} of ${MAX_REMINDERS}.\n\n` +
      `You MUST call ${SUBMIT_RESULT} now. No other tool calls, no text output.\n` +
      `- Task done: ${SUBMIT_RESULT} with result.data matching the schema\n- Task blocked: ${SUBMIT_RESULT} with result.error describing the blocker\n</system-reminder>`,
  );
}

export class StructuredOutput {
  private readonly queued = new Map<AgentMessage, OutputSpec>();
  private active: Active | undefined;
  private outcome: StructuredOutcome | undefined;

  constructor(private readonly o: StructuredOutputOptions) {}

  /** A new run chain starts with this prompt; returns the messages to add after the user message. */
  begin(spec: OutputSpec | undefined): AgentMessage[] {
    this.active = undefined;
    this.outcome = undefined;
    return spec ? this.activate(spec) : [];
  }

  /** A queued message that will carry a schema when a run takes it. */
  queue(message: AgentMessage, spec: OutputSpec): void {
    this.queued.set(message, spec);
  }

  /** A run took these queued messages: one with a schema makes that run structured. */
  consumed(messages: AgentMessage[]): AgentMessage[] {
    const out: AgentMessage[] = [];
    for (const m of messages) {
      out.push(m);
      const spec = this.queued.get(m);
      if (!spec) continue;
      this.queued.delete(m);
      this.outcome = undefined;
      out.push(...this.activate(spec));
    }
    return out;
  }

  dropped(messages: AgentMessage[]): void {
    for (const m of messages) this.queued.delete(m);
  }

  /** `submit_result` while a structured run is on. */
  tools(): Tool[] {
    return this.active ? [this.active.tool] : [];
  }

  /** A valid call was made: the run ends after this tool batch. */
  get submitted(): boolean {
    return this.active?.submitted !== undefined;
  }

  /**
   * After a run the host did not abort: the outcome when the model submitted, a reminder to
   * send when it stopped without doing so, or a failure once the reminders are spent.
   */
  afterRun(last: AssistantMessage | undefined): { remind: AgentMessage } | undefined {
    const a = this.active;
    if (!a) return undefined;
    if (a.submitted) return this.finish("data" in a.submitted ? { output: a.submitted.data } : { error: a.submitted.error });
    if (!last || last.stopReason === "error" || last.stopReason === "aborted") {
      this.active = undefined;
      return undefined;
    }
    if (a.reminders >= MAX_REMINDERS) {
      return this.finish({ error: `The model did not call ${SUBMIT_RESULT} with a valid result after ${MAX_REMINDERS} reminders` });
    }
    a.reminders += 1;
    return { remind: reminder(a.reminders) };
  }

  /** The run chain ended (aborted, failed or done): a structured run left unfinished has no outcome. */
  chainEnded(): void {
    this.active = undefined;
  }

  /** The outcome of the structured run that just ended (taken once). */
  takeOutcome(): StructuredOutcome | undefined {
    const o = this.outcome;
    this.outcome = undefined;
    return o;
  }

  private activate(spec: OutputSpec): AgentMessage[] {
    const active: Active = { spec, reminders: 0, tool: createSubmitResultTool(spec, (r) => (active.submitted ??= r)) };
    this.active = active;
    return [instruction(spec)];
  }

  private finish(outcome: StructuredOutcome): undefined {
    this.active = undefined;
    this.outcome = outcome;
    this.o.record(outcome);
    return undefined;
  }
}
