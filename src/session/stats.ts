// get_session_stats: counts and usage over the in-memory context.
import type { Static } from "typebox";
import type { SessionStatsSchema } from "../protocol/index.js";
import type { AgentMessage, Usage } from "../shared/types.js";
import { contextTokens, lastUsageIndex } from "./compaction/tokens.js";

/** `get_session_stats`: the wire's shape. */
export type SessionStats = Static<typeof SessionStatsSchema>;

/** Usage reported by a sub-agent (`task`) tool result in `details.usage`, if well-formed. */
function taskUsage(details: unknown): Partial<Usage> | undefined {
  if (details === null || typeof details !== "object") return undefined;
  const usage = (details as { usage?: unknown }).usage;
  return usage !== null && typeof usage === "object" ? (usage as Partial<Usage>) : undefined;
}

const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** Sum counts and usage of `messages`; token/cost totals include `task` and `inspect_image` tool results' `details.usage`. */
export function computeSessionStats(
  messages: readonly AgentMessage[],
  ids: { sessionFile?: string; sessionId: string; skippedEntries?: number },
): SessionStats {
  const stats: SessionStats = {
    sessionId: ids.sessionId,
    userMessages: 0,
    assistantMessages: 0,
    toolCalls: 0,
    toolResults: 0,
    totalMessages: messages.length,
    tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
    premiumRequests: 0,
    cost: 0,
    skippedEntries: ids.skippedEntries ?? 0,
  };
  if (ids.sessionFile !== undefined) stats.sessionFile = ids.sessionFile;
  const add = (u: Partial<Usage>): void => {
    stats.tokens.input += num(u.input);
    stats.tokens.output += num(u.output);
    stats.tokens.cacheRead += num(u.cacheRead);
    stats.tokens.cacheWrite += num(u.cacheWrite);
    stats.premiumRequests += num(u.premiumRequests);
    stats.cost += num(u.cost?.total);
  };
  for (const m of messages) {
    if (m.role === "user") stats.userMessages++;
    else if (m.role === "assistant") {
      stats.assistantMessages++;
      for (const block of m.content) if (block.type === "toolCall") stats.toolCalls++;
      add(m.usage);
    } else if (m.role === "toolResult") {
      stats.toolResults++;
      const u = m.toolName === "task" || m.toolName === "inspect_image" ? taskUsage(m.details) : undefined;
      if (u) add(u);
    }
  }
  const t = stats.tokens;
  t.total = t.input + t.output + t.cacheRead + t.cacheWrite;
  return stats;
}

/** pi's ContextUsage: tokens in context (unknown right after a compaction), the window, percent used. */
export interface ContextUsage {
  tokens: number | null;
  contextWindow: number;
  percent: number | null;
}

/** Undefined without a model window; tokens null after a compaction until a reply measured the new context. */
export function contextUsage(messages: AgentMessage[], contextWindow: number | undefined): ContextUsage | undefined {
  if (contextWindow === undefined || !(contextWindow > 0)) return undefined;
  const compacted = messages.some((m) => m.role === "compactionSummary");
  if (compacted && lastUsageIndex(messages) < 0) return { tokens: null, contextWindow, percent: null };
  const tokens = contextTokens(messages);
  return { tokens, contextWindow, percent: (tokens / contextWindow) * 100 };
}
