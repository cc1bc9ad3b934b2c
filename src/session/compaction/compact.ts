// From a preparation to a CompactionResult: the history summary and,
// for a split turn, the turn-prefix summary (requested in parallel), folded together, with the
// file lists appended. Applying the result (entry, context rebuild, events) is the session's.
import type { StreamTimeouts } from "../../providers/stream-watchdog.js";
import type { StreamFn } from "../../providers/types.js";
import { anySignal } from "../../shared/abort.js";
import type { CompactionResult, Model, ThinkingLevel } from "../../shared/types.js";
import { appendFileLists, type FileOperations } from "./file-ops.js";
import type { CompactionPreparation } from "./prepare.js";
import { generateSummary, shortSummaryOf, type GenerateSummaryOptions } from "./summarize.js";

export const NO_PRIOR_HISTORY = "No prior history.";
export const SPLIT_TURN_SEPARATOR = "\n\n---\n\n**Turn Context (split turn):**\n\n";

export interface RunCompactionOptions {
  stream: StreamFn;
  model: Model;
  apiKey?: string;
  signal: AbortSignal;
  customInstructions?: string;
  /** compaction.reserveTokens: the history summary may use 80 % of it, a turn prefix 50 %. */
  reserveTokens: number;
  thinkingLevel?: ThinkingLevel;
  /** Retry of each summary request after a transient failure; absent = one attempt. */
  retry?: GenerateSummaryOptions["retry"];
  /** First-byte and idle limits of each summary request. */
  timeouts?: StreamTimeouts;
}

export interface CompactionRunResult extends CompactionResult {
  details: FileOperations;
}

/** Summarises what `prep` selected. Throws PithError ("aborted" / "unavailable") like generateSummary. */
export async function runCompaction(prep: CompactionPreparation, options: RunCompactionOptions): Promise<CompactionRunResult> {
  const sibling = new AbortController();
  const signal = anySignal([options.signal, sibling.signal]);
  const { stream, model, apiKey, thinkingLevel, retry, timeouts } = options;
  const common = { stream, model, apiKey, signal, thinkingLevel, retry, timeouts };
  const history =
    prep.messagesToSummarize.length > 0
      ? generateSummary({
          ...common,
          messages: prep.messagesToSummarize,
          previousSummary: prep.previousSummary,
          customInstructions: options.customInstructions,
          maxTokens: Math.max(1, Math.floor(0.8 * options.reserveTokens)),
        }).then((s) => s.summary)
      : Promise.resolve(prep.previousSummary ?? NO_PRIOR_HISTORY);
  const prefix =
    prep.splitTurn && prep.turnPrefixMessages.length > 0
      ? generateSummary({
          ...common,
          messages: prep.turnPrefixMessages,
          turnPrefix: true,
          maxTokens: Math.max(1, Math.floor(0.5 * options.reserveTokens)),
        }).then((s) => s.summary)
      : Promise.resolve(undefined);
  // If one request fails, stop the other rather than paying for it.
  const guard = <T>(p: Promise<T>): Promise<T> =>
    p.catch((err: unknown) => {
      sibling.abort();
      throw err;
    });
  let historySummary: string;
  let prefixSummary: string | undefined;
  try {
    [historySummary, prefixSummary] = await Promise.all([guard(history), guard(prefix)]);
  } catch (err) {
    await Promise.allSettled([history, prefix]);
    throw err;
  }
  const folded = prefixSummary === undefined ? historySummary : `${historySummary}${SPLIT_TURN_SEPARATOR}${prefixSummary}`;
  const result: CompactionRunResult = {
    summary: appendFileLists(folded, prep.fileOperations),
    firstKeptEntryId: prep.firstKeptEntryId,
    tokensBefore: prep.tokensBefore,
    details: prep.fileOperations,
  };
  const short = shortSummaryOf(historySummary === NO_PRIOR_HISTORY && prefixSummary ? prefixSummary : historySummary);
  if (short) result.shortSummary = short;
  return result;
}
