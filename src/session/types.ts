// Public types of the session facade that its collaborators share.
import type { UserContent } from "../shared/types.js";
import type { OutputSpec } from "../tools/index.js";
import type { PromptId, PromptOutcome } from "./prompt-tracker.js";

export const BUSY_ERROR =
  "Agent is already processing. Use steer() or followUp() to queue messages, or wait for completion.";

export type StreamingBehavior = "steer" | "followUp";

export interface PromptOptions {
  images?: UserContent[];
  streamingBehavior?: StreamingBehavior;
  /** The command id (or a host's tag) stamped as `promptId` on the runs this prompt starts. */
  promptId?: PromptId;
  /** A compiled output schema (`compileOutputSchema`): the run must end with a structured result. */
  output?: OutputSpec;
  /** Who sent it, as extensions' `input` handlers see it; default "rpc". */
  source?: InputSource;
  /** Run `/command`s and expand skills and prompt templates; default true (an extension's `sendUserMessage`: false, as pi). */
  expandPromptTemplates?: boolean;
}

/** Where input comes from (pi's InputSource). */
export type InputSource = "interactive" | "rpc" | "extension";

/**
 * A started prompt: `accepted` settles after the pre-flight checks; `done` resolves when every
 * continuation has settled, and rejects only when the prompt failed after it was accepted.
 */
export interface PromptHandle {
  accepted: Promise<void>;
  done: Promise<void>;
  /** How the prompt ended, once all work it caused has finished (never rejects). Meaningful once accepted. */
  outcome: Promise<PromptOutcome>;
}
