// The LLM's view of the session context: every AgentMessage role is
// projected onto the four roles providers understand, tool calls are re-paired with their
// results, and runs of plain-text user messages are merged.
//
// Called before every model call on an ever-growing context, so it is linear, passes
// unchanged messages through by reference, and caches the derived projections of
// immutable messages (bash, custom, summaries) per message object.
import type {
  AgentMessage,
  AssistantMessage,
  BashExecutionMessage,
  LlmMessage,
  TextContent,
  ToolResultMessage,
  UserContent,
  UserMessage,
} from "../shared/types.js";

export const INTERRUPTED_TOOL_TEXT = "Tool execution was interrupted (session recovery).";
export const PRUNED_OUTPUT_TEXT = "[Output truncated]";

const COMPACTION_PREAMBLE =
  "This conversation has been going on for a while, so its earlier part was condensed into the " +
  "summary below. The work it describes was done by you (or a model before you) on this same task: " +
  "treat it as your own history, build on it, and carry on from where it left off instead of starting over.";
const BRANCH_PREAMBLE =
  "The conversation came back here from a branch that was explored and then left; this is what happened on that branch:";

/** Projects session messages onto what a provider accepts. Never mutates its input. */
export function convertToLlm(messages: AgentMessage[]): LlmMessage[] {
  const projected: LlmMessage[] = [];
  for (const message of messages) {
    const llm = project(message);
    if (llm) projected.push(llm);
  }
  return mergeUserText(repairToolPairing(projected));
}

// ── per-message projection ───────────────────────────────────────────────────

const derived = new WeakMap<AgentMessage, UserMessage>();

function project(message: AgentMessage): LlmMessage | undefined {
  switch (message.role) {
    case "user":
    case "developer":
    case "assistant":
      return message;
    case "toolResult":
      return message.prunedAt === undefined ? message : collapsePruned(message);
    case "bashExecution":
      return message.excludeFromContext ? undefined : cached(message, () => userText(bashExecutionText(message), message.timestamp));
    case "custom":
      return cached(message, () => {
        const content = typeof message.content === "string" ? [text(message.content)] : message.content;
        const user: UserMessage = { role: "user", content, timestamp: message.timestamp };
        if (message.attribution) user.attribution = message.attribution;
        return user;
      });
    case "compactionSummary":
      return cached(message, () => userText(compactionSummaryText(message.summary), message.timestamp));
    case "branchSummary":
      return cached(message, () => userText(branchSummaryText(message.summary), message.timestamp));
    default:
      return projectUnknown(message);
  }
}

/** Legacy `hookMessage` is treated like `custom`; any other unknown role is left out. */
function projectUnknown(message: never): LlmMessage | undefined {
  const legacy = message as { role?: string; content?: unknown; timestamp?: number };
  if (legacy.role !== "hookMessage") return undefined;
  const content = typeof legacy.content === "string" ? [text(legacy.content)] : (legacy.content as UserContent[]);
  return { role: "user", content: Array.isArray(content) ? content : [], timestamp: legacy.timestamp ?? 0 };
}

function cached(message: AgentMessage, build: () => UserMessage): UserMessage {
  let hit = derived.get(message);
  if (!hit) {
    hit = build();
    derived.set(message, hit);
  }
  return hit;
}

function text(value: string): TextContent {
  return { type: "text", text: value };
}

function userText(value: string, timestamp: number): UserMessage {
  return { role: "user", content: [text(value)], timestamp };
}

function collapsePruned(message: ToolResultMessage): ToolResultMessage {
  const parts = message.content.filter((c): c is TextContent => c.type === "text").map((c) => c.text);
  const collapsed = parts.join("\n");
  return { ...message, content: [text(collapsed.length > 0 ? collapsed : PRUNED_OUTPUT_TEXT)] };
}

/** The user-role text a `bashExecution` message becomes. */
export function bashExecutionText(message: BashExecutionMessage): string {
  let out = `Ran \`${message.command}\`\n`;
  if (message.output.length > 0) {
    const fence = fenceFor(message.output);
    out += `${fence}\n${message.output}${message.output.endsWith("\n") ? "" : "\n"}${fence}`;
  } else {
    out += "(no output)";
  }
  if (message.cancelled) out += "\n\n(command cancelled)";
  else if (message.exitCode !== undefined && message.exitCode !== null && message.exitCode !== 0) {
    out += `\n\nCommand exited with code ${message.exitCode}`;
  }
  if (message.truncated) out += `\n\n${truncationNotice(message)}`;
  return out;
}

/** A code fence longer than any backtick run inside `body`, so the output cannot close it. */
function fenceFor(body: string): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

function truncationNotice(message: BashExecutionMessage): string {
  const t = message.meta?.truncation;
  if (!t) return "[Output truncated]";
  const kept = t.direction === "tail" ? "last" : "first";
  let notice = `[Output truncated: showing the ${kept} ${t.outputLines} of ${t.totalLines} lines (${t.outputBytes} of ${t.totalBytes} bytes)`;
  if (t.fullOutputPath) notice += `. Full output: ${t.fullOutputPath}`;
  return `${notice}]`;
}

/** The user-role text a `compactionSummary` message becomes. */
export function compactionSummaryText(summary: string): string {
  return `${COMPACTION_PREAMBLE}\n\n<summary>\n${summary}\n</summary>`;
}

/** The user-role text a `branchSummary` message becomes. */
export function branchSummaryText(summary: string): string {
  return `${BRANCH_PREAMBLE}\n\n<summary>\n${summary}\n</summary>`;
}

// ── tool-call / result pairing ───────────────────────────────────────────────

function toolCallIds(message: AssistantMessage): string[] {
  const ids: string[] = [];
  for (const block of message.content) if (block.type === "toolCall") ids.push(block.id);
  return ids;
}

function interrupted(id: string, toolName: string, timestamp: number): ToolResultMessage {
  return { role: "toolResult", toolCallId: id, toolName, content: [text(INTERRUPTED_TOOL_TEXT)], isError: true, timestamp };
}

/**
 * Every assistant tool call is followed immediately by exactly one result per call: results
 * found elsewhere are moved into place (messages wedged in between end up after them), missing
 * ones are synthesised as errors, duplicates and results without a call are dropped.
 */
export function repairToolPairing(messages: LlmMessage[]): LlmMessage[] {
  const results = new Map<string, { message: ToolResultMessage; index: number }[]>();
  messages.forEach((m, index) => {
    if (m.role !== "toolResult") return;
    const list = results.get(m.toolCallId);
    if (list) list.push({ message: m, index });
    else results.set(m.toolCallId, [{ message: m, index }]);
  });
  const out: LlmMessage[] = [];
  for (const message of messages) {
    if (message.role === "toolResult") continue; // placed by its assistant, or an orphan
    out.push(message);
    if (message.role === "assistant") placeResults(message, results, out);
  }
  return out;
}

function placeResults(
  assistant: AssistantMessage,
  results: Map<string, { message: ToolResultMessage; index: number }[]>,
  out: LlmMessage[],
): void {
  const ids = toolCallIds(assistant);
  if (ids.length === 0) return;
  const found: { message: ToolResultMessage; index: number }[] = [];
  const missing: ToolResultMessage[] = [];
  for (const block of assistant.content) {
    if (block.type !== "toolCall") continue;
    const hit = results.get(block.id)?.shift();
    if (hit) found.push(hit);
    else missing.push(interrupted(block.id, block.name, assistant.timestamp));
  }
  // Keep the results' original relative order (completion order), which providers cache on.
  if (found.length > 1) found.sort((a, b) => a.index - b.index);
  for (const f of found) out.push(f.message);
  for (const m of missing) out.push(m);
}

// ── merging ──────────────────────────────────────────────────────────────────

function isAllText(message: UserMessage): boolean {
  return typeof message.content === "string" || message.content.every((c) => c.type === "text");
}

function asBlocks(content: string | UserContent[]): UserContent[] {
  return typeof content === "string" ? [text(content)] : content;
}

/** Consecutive user messages made only of text become one message (its blocks concatenated). */
export function mergeUserText(messages: LlmMessage[]): LlmMessage[] {
  const out: LlmMessage[] = [];
  let open: UserMessage | undefined; // the last pushed message, if it is a mergeable user message
  let openIsCopy = false;
  for (const message of messages) {
    if (message.role === "user" && isAllText(message) && open) {
      if (!openIsCopy) {
        open = { ...open, content: [...asBlocks(open.content)] };
        out[out.length - 1] = open;
        openIsCopy = true;
      }
      (open.content as UserContent[]).push(...asBlocks(message.content));
      continue;
    }
    out.push(message);
    open = message.role === "user" && isAllText(message) ? message : undefined;
    openIsCopy = false;
  }
  return out;
}
