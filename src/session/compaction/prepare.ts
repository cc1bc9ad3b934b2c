// Everything a compaction needs before the LLM call: the cut, the
// messages to summarise (history and, for a split turn, the turn prefix), the messages kept,
// the size before, the summary being updated and the files touched.
import type { AgentMessage, AssistantMessage } from "../../shared/types.js";
import { findCutPoint, type CompactionItem } from "./cut-point.js";
import { collectFileOperations, fileOperationsFromDetails, type FileOperations } from "./file-ops.js";
import { contextTokens, estimateTokens, lastUsageIndex } from "./tokens.js";

export interface PreviousCompaction {
  /** The summary being updated; defaults to a leading `compactionSummary` item's summary. */
  summary?: string;
  /** The previous compaction entry's `details` (its file lists are carried over). */
  details?: unknown;
}

export interface PrepareSettings {
  keepRecentTokens: number;
}

export interface CompactionPreparation {
  /** Entry id of the first message kept verbatim. */
  firstKeptEntryId: string;
  /** History before the cut (before the turn start when the turn is split). */
  messagesToSummarize: AgentMessage[];
  /** Split turn only: the turn's messages before the cut, summarised separately. */
  turnPrefixMessages: AgentMessage[];
  /** Messages kept verbatim after the summary. */
  keptMessages: AgentMessage[];
  splitTurn: boolean;
  /** Context tokens before compaction (last reported usage + estimates after it). */
  tokensBefore: number;
  previousSummary?: string;
  /** Files read/modified in everything summarised so far (including earlier compactions). */
  fileOperations: FileOperations;
  /** The keep budget actually used (after the adaptive correction). */
  keepRecentTokens: number;
}

/**
 * `items` are the branch's current context messages with their entry ids: optionally the
 * `compactionSummary` of the latest compaction first, then the messages it kept, then newer
 * ones. Returns undefined when there is nothing to summarise.
 */
export function prepareCompaction(
  items: CompactionItem[],
  previousCompaction: PreviousCompaction | undefined,
  settings: PrepareSettings,
): CompactionPreparation | undefined {
  let start = 0;
  let previousSummary = previousCompaction?.summary;
  while (start < items.length && items[start].message.role === "compactionSummary") {
    const m = items[start].message;
    if (previousSummary === undefined && m.role === "compactionSummary") previousSummary = m.summary;
    start++;
  }
  const all = items.map((i) => i.message);
  const window = start === 0 ? items : items.slice(start);
  const keepRecentTokens = adaptiveKeepBudget(all, settings.keepRecentTokens);
  const cut = findCutPoint(window, keepRecentTokens);
  if (!cut) return undefined;
  const historyEnd = cut.splitTurn ? (cut.turnStartIndex as number) : cut.firstKeptIndex;
  const messagesToSummarize = window.slice(0, historyEnd).map((i) => i.message);
  const turnPrefixMessages = cut.splitTurn ? window.slice(historyEnd, cut.firstKeptIndex).map((i) => i.message) : [];
  const previousFiles = fileOperationsFromDetails(previousCompaction?.details);
  const prep: CompactionPreparation = {
    firstKeptEntryId: window[cut.firstKeptIndex].id,
    messagesToSummarize,
    turnPrefixMessages,
    keptMessages: window.slice(cut.firstKeptIndex).map((i) => i.message),
    splitTurn: cut.splitTurn,
    tokensBefore: contextTokens(all),
    fileOperations: collectFileOperations([...messagesToSummarize, ...turnPrefixMessages], previousFiles),
    keepRecentTokens,
  };
  if (previousSummary !== undefined) prep.previousSummary = previousSummary;
  return prep;
}

/**
 * When the provider measured the context larger than the chars/4 estimate, the
 * estimate under-counts, so shrink the keep budget by the same ratio (never below 1).
 */
export function adaptiveKeepBudget(messages: AgentMessage[], keepRecentTokens: number): number {
  const last = lastUsageIndex(messages);
  if (last < 0) return keepRecentTokens;
  const usage = (messages[last] as AssistantMessage).usage;
  const prompt = usage.input + usage.cacheRead + usage.cacheWrite;
  let estimate = 0;
  for (let i = 0; i < last; i++) estimate += estimateTokens(messages[i]);
  if (estimate <= 0 || prompt <= estimate) return keepRecentTokens;
  return Math.max(1, Math.floor(keepRecentTokens / (prompt / estimate)));
}
