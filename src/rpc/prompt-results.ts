// `prompt_result` frames: one per accepted prompting command, written once the session says how
// its message ended. Written a macrotask later, so each follows its command's response and
// precedes the `session_settled` of the same quiet moment (the session waits two macrotasks).
import type { PromptResultFrame, RpcId } from "../protocol/index.js";
import type { PromptOutcome } from "../session/index.js";

export interface PromptResultsOptions {
  write(frame: PromptResultFrame): void;
  /** Read when the frame is written. */
  isSettled(): boolean;
}

export class PromptResults {
  constructor(private readonly o: PromptResultsOptions) {}

  /** Reports `outcome` for the command `id` once it resolves. */
  track(id: RpcId | undefined, outcome: Promise<PromptOutcome>): void {
    void outcome.then((result) => setImmediate(() => this.o.write(promptResultFrame(id, result, this.o.isSettled()))));
  }
}

/** The frame for one outcome; extra outcome fields (e.g. a structured result) are carried as they are. */
export function promptResultFrame(id: RpcId | undefined, outcome: PromptOutcome, sessionSettled: boolean): PromptResultFrame {
  const { agentInvoked, status, error, ...extra } = outcome;
  return {
    type: "prompt_result",
    ...(id !== undefined ? { id } : {}),
    agentInvoked,
    status,
    ...(error ? { error } : {}),
    ...extra,
    sessionSettled,
  };
}
