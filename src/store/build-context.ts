// The LLM-facing context of the current branch: one pass over the leaf's path.
import type { AgentMessage, ThinkingLevel } from "../shared/types.js";
import { customMessageOf, type CompactionEntry, type SessionEntry } from "./entry-types.js";

export interface SessionContext {
  /** What the agent starts from: a compaction summary first when the path has a compaction. */
  messages: AgentMessage[];
  /** The latest `model_change` or assistant message on the path. */
  model?: { provider: string; modelId: string };
  /** The latest `thinking_level_change` on the path (`null` read as "off"); undefined when none. */
  thinkingLevel?: ThinkingLevel;
}

/** The message an entry contributes to the context, if any. */
function contribution(e: SessionEntry): AgentMessage | undefined {
  switch (e.type) {
    case "message":
      return e.message;
    case "custom_message":
      return customMessageOf(e);
    case "branch_summary":
      return e.summary ? { role: "branchSummary", summary: e.summary, fromId: e.fromId, timestamp: Date.parse(e.timestamp) || 0 } : undefined;
    default:
      return undefined;
  }
}

/** A context message with the id of the entry it came from (the compaction's id for its summary). */
export interface ContextItem {
  id: string;
  message: AgentMessage;
}

/**
 * The branch's context messages with their entry ids: the latest compaction's summary first,
 * then the entries it kept, then newer ones. Linear in the path length.
 */
export function contextItemsFromPath(path: readonly SessionEntry[]): { items: ContextItem[]; compaction?: CompactionEntry } {
  let compactionAt = -1;
  for (let i = path.length - 1; i >= 0 && compactionAt === -1; i--) if (path[i].type === "compaction") compactionAt = i;
  const items: ContextItem[] = [];
  const push = (from: number, to: number): void => {
    for (let i = from; i < to; i++) {
      const m = contribution(path[i]);
      if (m) items.push({ id: path[i].id, message: m });
    }
  };
  const c = compactionAt === -1 ? undefined : path[compactionAt];
  if (c?.type !== "compaction") {
    push(0, path.length);
    return { items };
  }
  const summary: AgentMessage = { role: "compactionSummary", summary: c.summary, tokensBefore: c.tokensBefore, timestamp: Date.parse(c.timestamp) || 0 };
  if (c.shortSummary !== undefined) summary.shortSummary = c.shortSummary;
  items.push({ id: c.id, message: summary });
  let firstKept = compactionAt;
  for (let i = 0; i < compactionAt; i++) {
    if (path[i].id === c.firstKeptEntryId) {
      firstKept = i;
      break;
    }
  }
  push(firstKept, compactionAt);
  push(compactionAt + 1, path.length);
  return { items, compaction: c };
}

/** Build the context from a root-to-leaf path. Linear in the path length. */
export function buildContextFromPath(path: readonly SessionEntry[]): SessionContext {
  const ctx: SessionContext = { messages: contextItemsFromPath(path).items.map((i) => i.message) };
  // Only the last model source matters: remember which entry it was, build the object once.
  let modelAt = -1;
  for (let i = 0; i < path.length; i++) {
    const e = path[i];
    if (e.type === "message") {
      if (e.message.role === "assistant") modelAt = i;
    } else if (e.type === "thinking_level_change") ctx.thinkingLevel = e.thinkingLevel ?? "off";
    else if (e.type === "model_change") modelAt = i;
  }
  const m = modelAt === -1 ? undefined : path[modelAt];
  if (m?.type === "model_change") ctx.model = { provider: m.provider, modelId: m.modelId };
  else if (m?.type === "message" && m.message.role === "assistant") ctx.model = { provider: m.message.provider, modelId: m.message.model };
  return ctx;
}

/** The context of `store`'s current leaf (from the part of the branch it is built from). */
export function buildSessionContext(store: { contextBranch(): SessionEntry[] }): SessionContext {
  return buildContextFromPath(store.contextBranch());
}
