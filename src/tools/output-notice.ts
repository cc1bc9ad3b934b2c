// The notice wrapper every built-in tool result goes through: tools describe
// truncation and limits in `details.meta`; this appends one bracketed notice to the last text
// block, and tail-truncates any text that is still over the limits.
import type { AgentToolResult, TextContent } from "../shared/types.js";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, headBytes, truncateHead } from "./truncate.js";

/** What a built-in tool reports about its own output, in `details.meta`. */
export interface OutputMeta {
  truncation?: {
    /** 1-based line numbers of the shown window, and the total. */
    startLine: number;
    endLine: number;
    totalLines: number;
    /** Set when the byte limit (not the line limit) did the cutting. */
    maxBytes?: number;
  };
  /** Text following the truncation part, e.g. "Use offset=2001 to continue." */
  hint?: string;
  matchLimit?: number;
  resultLimit?: number;
  linesTruncatedTo?: number;
  /** Extra notice parts, shown after the others. */
  notes?: string[];
}

/** The notice text (without brackets) for `meta`, or "" when there is nothing to say. */
export function formatNotice(meta: OutputMeta): string {
  const parts: string[] = [];
  if (meta.truncation) {
    const t = meta.truncation;
    const limit = t.maxBytes !== undefined ? ` (${formatSize(t.maxBytes)} limit)` : "";
    parts.push(`Showing lines ${t.startLine}-${t.endLine} of ${t.totalLines}${limit}`);
  }
  if (meta.hint) parts.push(meta.hint);
  if (meta.matchLimit !== undefined) {
    parts.push(`${meta.matchLimit} matches limit reached. Use limit=${meta.matchLimit * 2} for more`);
  }
  if (meta.resultLimit !== undefined) {
    parts.push(`${meta.resultLimit} results limit reached. Use limit=${meta.resultLimit * 2} for more`);
  }
  if (meta.linesTruncatedTo !== undefined) parts.push(`Some lines truncated to ${meta.linesTruncatedTo} chars`);
  if (meta.notes) parts.push(...meta.notes);
  return parts.join(". ");
}

function metaOf(details: unknown): OutputMeta | undefined {
  if (!details || typeof details !== "object") return undefined;
  const meta = (details as { meta?: unknown }).meta;
  return meta && typeof meta === "object" ? (meta as OutputMeta) : undefined;
}

function lastTextIndex(content: AgentToolResult["content"]): number {
  for (let i = content.length - 1; i >= 0; i--) if (content[i].type === "text") return i;
  return -1;
}

/** Applies the safety-net truncation and appends the notice. Returns a new result. */
export function applyOutputNotice(result: AgentToolResult): AgentToolResult {
  const content = result.content.map((c) => (c.type === "text" ? capText(c) : c));
  const meta = metaOf(result.details);
  const notice = meta ? formatNotice(meta) : "";
  if (notice) {
    const idx = lastTextIndex(content);
    const block = `[${notice}]`;
    if (idx === -1) content.push({ type: "text", text: block });
    else {
      const prev = content[idx] as TextContent;
      content[idx] = { ...prev, text: prev.text ? `${prev.text}\n\n${block}` : block };
    }
  }
  return { ...result, content };
}

function capText(block: TextContent): TextContent {
  const t = truncateHead(block.text, { maxLines: DEFAULT_MAX_LINES, maxBytes: DEFAULT_MAX_BYTES });
  if (!t.truncated) return block;
  if (t.firstLineExceedsLimit) {
    return { ...block, text: `${headBytes(block.text, t.maxBytes)}\n\n[Output truncated to ${formatSize(t.maxBytes)}]` };
  }
  const limit = t.truncatedBy === "bytes" ? ` (${formatSize(t.maxBytes)} limit)` : "";
  return { ...block, text: `${t.content}\n\n[Output truncated: showing lines 1-${t.outputLines} of ${t.totalLines}${limit}]` };
}
