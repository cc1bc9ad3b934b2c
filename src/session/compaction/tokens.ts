// Token accounting for compaction: a chars/4 estimate per
// message, the context size as the provider last reported it plus estimates for what came
// after, and the threshold rule.
import type { AgentMessage, AssistantMessage, Usage, UserContent } from "../../shared/types.js";

/** What one image is assumed to cost, in tokens (4,800 chars at 4 chars per token). */
export const IMAGE_TOKENS = 1200;

function contentChars(content: string | UserContent[]): { chars: number; images: number } {
  if (typeof content === "string") return { chars: content.length, images: 0 };
  let chars = 0;
  let images = 0;
  for (const block of content) {
    if (block.type === "text") chars += block.text.length;
    else images++;
  }
  return { chars, images };
}

function assistantChars(message: AssistantMessage): number {
  let chars = 0;
  for (const block of message.content) {
    if (block.type === "text") chars += block.text.length;
    else if (block.type === "thinking") chars += block.thinking.length;
    else if (block.type === "toolCall") chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
  }
  return chars;
}

/**
 * Estimated tokens of one message: characters / 4, rounded up, plus a fixed amount per image.
 * Unlike the reference, `custom` and `developer` messages count (they are sent to the model);
 * a `bashExecution` excluded from context counts 0.
 */
export function estimateTokens(message: AgentMessage): number {
  switch (message.role) {
    case "user":
    case "developer":
    case "custom":
    case "toolResult": {
      const { chars, images } = contentChars(message.content);
      return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
    }
    case "assistant":
      return Math.ceil(assistantChars(message) / 4);
    case "bashExecution":
      return message.excludeFromContext ? 0 : Math.ceil((message.command.length + message.output.length) / 4);
    case "compactionSummary":
    case "branchSummary":
      return Math.ceil(message.summary.length / 4);
    default:
      return 0;
  }
}

/** input + output + cacheRead + cacheWrite: the context the reply saw plus what it added. */
export function usageTokens(usage: Usage): number {
  return usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** A reply whose usage describes the context: not failed or aborted, with non-zero usage. */
export function hasContextUsage(message: AgentMessage): message is AssistantMessage {
  return (
    message.role === "assistant" &&
    message.stopReason !== "error" &&
    message.stopReason !== "aborted" &&
    usageTokens(message.usage) > 0
  );
}

/**
 * Index of the last reply whose usage measures the current context, or -1. After a compaction
 * (a `compactionSummary` in the list) only replies newer than the summary count: kept replies
 * carry usage measured on the pre-compaction context.
 */
export function lastUsageIndex(messages: AgentMessage[]): number {
  let since = -Infinity;
  for (const m of messages) if (m.role === "compactionSummary") since = Math.max(since, m.timestamp);
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (hasContextUsage(m) && m.timestamp >= since) return i;
  }
  return -1;
}

/**
 * Context size in tokens: the last successful reply's usage plus estimates of the messages
 * after it; the estimate of everything when no reply has reported usage.
 */
export function contextTokens(messages: AgentMessage[]): number {
  const last = lastUsageIndex(messages);
  let tokens = last >= 0 ? usageTokens((messages[last] as AssistantMessage).usage) : 0;
  for (let i = last + 1; i < messages.length; i++) tokens += estimateTokens(messages[i]);
  return tokens;
}

export interface CompactionThresholdSettings {
  /** false ⇒ never compact automatically. Default true. */
  enabled?: boolean;
  /** Floor of the head-room kept free (default 16384). */
  reserveTokens: number;
  /** Threshold as a percentage of the window (clamped 1–99); ≤ 0 or absent = unset. */
  thresholdPercent?: number;
  /** Absolute threshold (clamped 1 … window−1); wins over the percentage; ≤ 0 or absent = unset. */
  thresholdTokens?: number;
}

/** The context size above which auto-compaction runs. */
export function compactionThreshold(contextWindow: number, settings: CompactionThresholdSettings): number {
  if (settings.thresholdTokens !== undefined && settings.thresholdTokens > 0) {
    return Math.min(Math.max(Math.floor(settings.thresholdTokens), 1), Math.max(contextWindow - 1, 1));
  }
  if (settings.thresholdPercent !== undefined && settings.thresholdPercent > 0) {
    const pct = Math.min(Math.max(settings.thresholdPercent, 1), 99);
    return Math.floor((contextWindow * pct) / 100);
  }
  return contextWindow - Math.max(Math.floor(0.15 * contextWindow), settings.reserveTokens);
}

/** True when `tokens` of context exceed the threshold for a window of `contextWindow`. */
export function shouldCompact(tokens: number, contextWindow: number, settings: CompactionThresholdSettings): boolean {
  if (settings.enabled === false || contextWindow <= 0) return false;
  return tokens > compactionThreshold(contextWindow, settings);
}
