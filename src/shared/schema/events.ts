// The event stream: agent events and session events, each with a one-line
// description that the published JSON Schema carries.
import Type, { type TSchema } from "typebox";
import { ToolCallSchema } from "./content.js";
import { AgentMessageSchema, AssistantMessageSchema, ToolResultMessageSchema } from "./messages.js";
import { RecordSchema, literals } from "./primitives.js";
import { AgentToolResultSchema, CompactionResultSchema, TtsrRuleSchema } from "./results.js";
import { SubagentEventPayloadSchema, SubagentLifecyclePayloadSchema, SubagentProgressPayloadSchema } from "./subagents.js";

const Num = Type.Number();
const Str = Type.String();
const Opt = Type.Optional;

function event<T extends string, P extends Record<string, TSchema>>(type: T, props: P, description: string) {
  return Type.Object({ type: Type.Literal(type), ...props }, { description });
}

// ── assistant stream sub-events inside message_update ──────────────────

const partial = { contentIndex: Num, partial: AssistantMessageSchema };
export const AssistantUpdateEventSchema = Type.Union([
  event("text_start", partial, "A text block starts."),
  event("text_delta", { ...partial, delta: Str }, "Text appended to the block."),
  event("text_end", { ...partial, content: Str }, "A text block ends; content is its full text."),
  event("thinking_start", partial, "A thinking block starts."),
  event("thinking_delta", { ...partial, delta: Str }, "Thinking appended to the block."),
  event("thinking_end", { ...partial, content: Str }, "A thinking block ends."),
  event("toolcall_start", partial, "A tool call block starts."),
  event("toolcall_delta", { ...partial, delta: Str }, "Raw JSON argument fragment."),
  event("toolcall_end", { ...partial, toolCall: ToolCallSchema }, "A tool call block is complete."),
]);

// ── agent events ───────────────────────────────────────────

const toolIds = { toolCallId: Str, toolName: Str };
/** pith/oh-my-pi: the id of the command whose message started the run (absent when it had none). */
const promptId = { promptId: Opt(Type.Union([Str, Num], { description: "id of the command whose message started the run" })) };
/** oh-my-pi: shared by a message's message_start, every message_update and its message_end; unique in the process. */
const messageId = { messageId: Opt(Type.String({ description: "one message's id, unique in the process" })) };
export const AGENT_EVENT_SCHEMAS = [
  event("agent_start", { ...promptId }, "A run begins."),
  event("agent_end", { messages: Type.Array(AgentMessageSchema), ...promptId }, "A run ended; messages added during it."),
  event("turn_start", { ...promptId }, "One model call (and its tools) begins."),
  event(
    "turn_end",
    { message: AssistantMessageSchema, toolResults: Type.Array(ToolResultMessageSchema) },
    "A turn ended; tool results in completion order.",
  ),
  event("message_start", { message: AgentMessageSchema, ...messageId }, "A message enters the context."),
  event(
    "message_update",
    { message: AssistantMessageSchema, assistantMessageEvent: AssistantUpdateEventSchema, ...messageId },
    "Streaming progress of an assistant message.",
  ),
  event("message_end", { message: AgentMessageSchema, ...messageId }, "A message is final."),
  event(
    "tool_execution_start",
    { ...toolIds, args: RecordSchema, intent: Opt(Str) },
    "A tool call starts executing.",
  ),
  event(
    "tool_execution_update",
    { ...toolIds, args: RecordSchema, partialResult: AgentToolResultSchema },
    "Partial output of a running tool.",
  ),
  event(
    "tool_execution_end",
    { ...toolIds, result: AgentToolResultSchema, isError: Type.Boolean(), isWarning: Opt(Type.Boolean()) },
    "A tool call finished.",
  ),
] as const;

// ── session events ─────────────────────────────────────────────────────

const CompactionAction = literals(["context-full", "handoff"]);
export const SESSION_EVENT_SCHEMAS = [
  event(
    "auto_compaction_start",
    { reason: literals(["threshold", "overflow", "idle"]), action: CompactionAction },
    "Automatic compaction begins.",
  ),
  event(
    "auto_compaction_end",
    {
      action: CompactionAction,
      result: Opt(CompactionResultSchema),
      aborted: Type.Boolean(),
      willRetry: Type.Boolean(),
      errorMessage: Opt(Str),
      skipped: Opt(Type.Boolean()),
    },
    "Automatic compaction finished.",
  ),
  event(
    "auto_retry_start",
    { attempt: Num, maxAttempts: Num, delayMs: Num, errorMessage: Str },
    "A transient provider error will be retried after delayMs.",
  ),
  event(
    "auto_retry_end",
    { success: Type.Boolean(), attempt: Num, finalError: Opt(Str) },
    "The retry sequence finished.",
  ),
  event("ttsr_triggered", { rules: Type.Array(TtsrRuleSchema) }, "A stream rule matched; the run restarts with it."),
  event(
    "todo_reminder",
    {
      todos: Type.Array(Type.Object({ id: Str, content: Str, status: literals(["pending", "in_progress"]) })),
      attempt: Num,
      maxAttempts: Num,
    },
    "Incomplete todos: a reminder run starts.",
  ),
  event("todo_auto_clear", {}, "A finished todo was auto-removed."),
  event(
    "session_settled",
    {},
    "oh-my-pi: the session went quiet after activity (no run, retry wait, compaction or queued message).",
  ),
  event("agent_settled", {}, "pi's name for session_settled, written at the same moment."),
  event(
    "checkpoint_created",
    { checkpointId: Str, entryId: Str, kind: literals(["prompt", "restore"]) },
    "A file checkpoint was recorded: before a user message's tools (entryId: that message) or before a restore (entryId: the leaf then).",
  ),
  event(
    "subagent_lifecycle",
    { payload: SubagentLifecyclePayloadSchema },
    "oh-my-pi: a subagent of the task tool started or ended (written after set_subagent_subscription progress or events).",
  ),
  event(
    "subagent_progress",
    { payload: SubagentProgressPayloadSchema },
    "oh-my-pi: what a running subagent is doing (written after set_subagent_subscription progress or events).",
  ),
  event(
    "subagent_event",
    { payload: SubagentEventPayloadSchema },
    "oh-my-pi: one event of a subagent's own session (written after set_subagent_subscription events).",
  ),
  event("checkpoint_notice", { message: Str }, "File checkpoints stopped for this session (the folder holds too many files) or pruning failed."),
] as const;

export const AgentEventSchema = Type.Union([...AGENT_EVENT_SCHEMAS]);
export const SessionEventSchema = Type.Union([...SESSION_EVENT_SCHEMAS]);
export const AgentSessionEventSchema = Type.Union([...AGENT_EVENT_SCHEMAS, ...SESSION_EVENT_SCHEMAS]);
