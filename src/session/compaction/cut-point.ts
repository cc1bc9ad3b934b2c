// Where to cut a history for compaction: keep roughly the newest
// `keepRecentTokens` verbatim, summarise the rest. A cut never lands on a tool result, so an
// assistant's tool calls and their results are always on the same side.
import type { AgentMessage } from "../../shared/types.js";
import { estimateTokens } from "./tokens.js";

export interface CompactionItem {
  /** Id of the session entry the message came from (becomes `firstKeptEntryId`). */
  id: string;
  message: AgentMessage;
}

export interface CutPoint {
  /** Index of the first item kept verbatim; everything before it is summarised. */
  firstKeptIndex: number;
  /** The cut falls inside a turn: items turnStartIndex … firstKeptIndex−1 are its prefix. */
  splitTurn: boolean;
  /** Set when `splitTurn`: where the cut turn started. */
  turnStartIndex?: number;
}

/** Roles a cut may land on (the first kept message). Never `toolResult`. */
export function isValidCutPoint(message: AgentMessage): boolean {
  return message.role !== "toolResult";
}

/** Roles that open a turn: something other than the model speaking. */
export function isTurnStart(message: AgentMessage): boolean {
  switch (message.role) {
    case "user":
    case "developer":
    case "custom":
    case "bashExecution":
    case "branchSummary":
    case "compactionSummary":
      return true;
    default:
      return false;
  }
}

/**
 * Walks back from the newest item summing estimated tokens. At the first item where the sum
 * reaches `keepRecentTokens`, the cut is the nearest valid cut point at or before it, so at least
 * `keepRecentTokens` stay verbatim and the overshoot is at most the tool results between that
 * cut point and the crossing (one assistant reply and its results, or one turn-opening message).
 *
 * Returns undefined when nothing would be summarised: the history is within the budget, or
 * has no valid cut point after its first item.
 */
export function findCutPoint(items: CompactionItem[], keepRecentTokens: number): CutPoint | undefined {
  let sum = 0;
  let crossing = -1;
  for (let i = items.length - 1; i >= 0; i--) {
    sum += estimateTokens(items[i].message);
    if (sum >= keepRecentTokens) {
      crossing = i;
      break;
    }
  }
  if (crossing <= 0) return undefined; // within budget, or everything must be kept
  let cut = crossing;
  while (cut > 0 && !isValidCutPoint(items[cut].message)) cut--;
  if (cut === 0) return undefined;
  return withTurn(items, cut);
}

function withTurn(items: CompactionItem[], cut: number): CutPoint {
  if (isTurnStart(items[cut].message)) return { firstKeptIndex: cut, splitTurn: false };
  for (let i = cut - 1; i >= 0; i--) {
    if (isTurnStart(items[i].message)) return { firstKeptIndex: cut, splitTurn: true, turnStartIndex: i };
  }
  // The turn began before this window (e.g. before a previous compaction): summarise it as history.
  return { firstKeptIndex: cut, splitTurn: false };
}
