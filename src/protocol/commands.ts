// Every inbound command (pith extras) as a TypeBox schema.
// Each variant's doc comment says what answers it. Extra fields are ignored (objects stay open).
import Type, { type Static, type TSchema } from "typebox";
import { ImageContentSchema, PermissionRulesInputSchema, ThinkingLevelInputSchema, literals } from "../shared/schema/index.js";
import { LIVENESS_COMMAND_SCHEMAS } from "./liveness.js";
import { command } from "./command-schema.js";
import { EXTRA_COMMAND_SCHEMAS } from "./extra-commands.js";
import { SESSION_COMMAND_SCHEMAS } from "./session-commands.js";
import { SUBAGENT_COMMAND_SCHEMAS } from "./subagent-commands.js";
import { TRUST_COMMAND_SCHEMAS } from "./trust-commands.js";

export { RpcIdSchema, type RpcId } from "./command-schema.js";

const Images = Type.Optional(Type.Array(ImageContentSchema));
const QueueMode = literals(["all", "one-at-a-time"]);
/** pith: a JSON Schema the run's final answer must match; the result is prompt_result.output. */
const OutputSchema = Type.Optional(
  Type.Unknown({ description: "pith: JSON Schema (draft 2020-12 or draft-07, at most 64 KiB) for a structured answer via submit_result; prompt_result.output carries it" }),
);

/** One schema per command type, keyed by `type`. */
export const COMMAND_SCHEMAS = {
  /** Answered at once with an ack; a late second response carries a pipeline failure. */
  prompt: command(
    "prompt",
    { message: Type.String(), images: Images, streamingBehavior: Type.Optional(literals(["steer", "followUp"])), outputSchema: OutputSchema },
    "Send a user prompt; ack at once, late error response if the prompt pipeline fails.",
  ),
  /** Answered once the message is on the steering queue (no data). */
  steer: command("steer", { message: Type.String(), images: Images }, "Queue a steering message."),
  /** Answered once the message is on the follow-up queue (no data). */
  follow_up: command("follow_up", { message: Type.String(), images: Images, outputSchema: OutputSchema }, "Queue a follow-up message."),
  /** Answered after the agent loop has fully stopped (no data). */
  abort: command("abort", {}, "Abort the current run and wait until it has stopped."),
  /** Answered after the abort, with an ack for the new prompt; late errors as for prompt. */
  abort_and_prompt: command(
    "abort_and_prompt",
    { message: Type.String(), images: Images, outputSchema: OutputSchema },
    "Abort, then prompt.",
  ),
  /** Answered with `{cancelled}` once the new session is in place. */
  new_session: command("new_session", { parentSession: Type.Optional(Type.String()) }, "Start a new session."),
  /** Answered with the RpcSessionState. */
  get_state: command("get_state", {}, "Read the session state."),
  /** Answered with `{todoPhases}`, the normalised stored copy. */
  // Like the reference, phases are normalised rather than validated: ids and
  // statuses are kept as sent; the handler rejects a phase without a `tasks` array by name.
  set_todos: command(
    "set_todos",
    { phases: Type.Array(Type.Unknown({ description: "TodoPhase: {id, name, tasks: TodoItem[]}" })) },
    "Replace the in-memory todo list.",
  ),
  /** Answered with `{toolNames}` once the host tools are registered. */
  set_host_tools: command(
    "set_host_tools",
    // Each definition is checked by normalizeHostToolDefinitions (host-tool-definitions.ts) so
    // that errors use the exact wording
    { tools: Type.Array(Type.Unknown({ description: "RpcHostToolDefinition: {name, label?, description, parameters, hidden?, readOnly?}" })) },
    "Replace the host-owned tools.",
  ),
  /** Answered with the selected Model, or `Model not found: <provider>/<modelId>`. */
  set_model: command("set_model", { provider: Type.String(), modelId: Type.String() }, "Select a model."),
  /** Answered with `{model, thinkingLevel?, isScoped}` or `null` when there is nothing to cycle. */
  cycle_model: command("cycle_model", {}, "Switch to the next available model."),
  /** Answered with `{models}`. */
  get_available_models: command("get_available_models", {}, "List models that have credentials."),
  /** Answered without data once the level is applied (clamped to the model). */
  set_thinking_level: command("set_thinking_level", { level: ThinkingLevelInputSchema }, "Set the thinking level."),
  /** Answered with `{level}` or `null` for a non-reasoning model. */
  cycle_thinking_level: command("cycle_thinking_level", {}, "Cycle the thinking level."),
  /** Answered without data. */
  set_steering_mode: command("set_steering_mode", { mode: QueueMode }, "Set how steering messages are dequeued."),
  /** Answered without data. */
  set_follow_up_mode: command("set_follow_up_mode", { mode: QueueMode }, "Set how follow-ups are dequeued."),
  /** Answered without data. */
  set_interrupt_mode: command(
    "set_interrupt_mode",
    { mode: literals(["immediate", "wait"]) },
    "Set when steering interrupts tool batches.",
  ),
  /** Answered with the CompactionResult after the summary call. */
  compact: command("compact", { customInstructions: Type.Optional(Type.String()) }, "Compact the context now."),
  /** Answered without data. */
  set_auto_compaction: command("set_auto_compaction", { enabled: Type.Boolean() }, "Toggle auto-compaction."),
  /** Answered without data. */
  set_auto_retry: command("set_auto_retry", { enabled: Type.Boolean() }, "Toggle auto-retry."),
  /** Answered without data; a sleeping retry ends with `auto_retry_end`. */
  abort_retry: command("abort_retry", {}, "Cancel a pending retry backoff."),
  /** Answered with the BashResult when the command exits. */
  bash: command("bash", { command: Type.String() }, "Run a shell command in the persistent shell."),
  /** Answered without data (pre-empts a running `bash`). */
  abort_bash: command("abort_bash", {}, "Abort the running bash command."),
  /** Answered with SessionStats. */
  get_session_stats: command("get_session_stats", {}, "Token, cost and message statistics."),
  /** Answered with `{path}` of the written HTML file. */
  export_html: command("export_html", { outputPath: Type.Optional(Type.String()) }, "Export the session to HTML."),
  /** Answered with `{cancelled}` once the session is loaded. */
  switch_session: command("switch_session", { sessionPath: Type.String() }, "Load another session file."),
  /** Answered with `{text, cancelled}`. */
  branch: command("branch", { entryId: Type.String() }, "Branch from a user message into a new session file."),
  /** Answered with `{messages: {entryId, text}[]}`. */
  get_branch_messages: command("get_branch_messages", {}, "List user messages that can be branched from."),
  /** Answered with `{text?}` (empty object when there is none). */
  get_last_assistant_text: command("get_last_assistant_text", {}, "Text of the last assistant message."),
  /** Answered without data, or `Session name cannot be empty`. */
  set_session_name: command("set_session_name", { name: Type.String() }, "Name the session."),
  /** Answered with `{messages}`, the in-memory context. */
  get_messages: command("get_messages", {}, "The in-memory context."),
  /** pi dialect of `branch`: answered with `{text, cancelled}`. */
  fork: command("fork", { entryId: Type.String() }, "pi dialect of branch."),
  /** pi dialect of `get_branch_messages`: answered with `{messages}`. */
  get_fork_messages: command("get_fork_messages", {}, "pi dialect of get_branch_messages."),
  /** pi dialect: answered with `{cancelled}` after duplicating the current branch into a new session. */
  clone: command("clone", {}, "Duplicate the current branch into a new session file."),
  /** pi dialect: answered with `{commands}` (extension, prompt-template and skill commands). */
  get_commands: command("get_commands", {}, "List slash commands."),
  /** Older pi dialect of `switch_session` (the Python orchestrator pattern): answered with `{cancelled}`. */
  resume_session: command("resume_session", { sessionFile: Type.String() }, "pi dialect of switch_session."),
  /** pith extra: answered without data; toggles delta-only `message_update` streaming. */
  set_delta_streaming: command("set_delta_streaming", { enabled: Type.Boolean() }, "Toggle delta-only streaming."),
  ...LIVENESS_COMMAND_SCHEMAS,
  /** pith extra (file checkpoints): answered with `{checkpoints}`, oldest first. */
  get_checkpoints: command("get_checkpoints", {}, "List the file checkpoints recorded in this session."),
  /** pith extra: answered with `{files, patch, truncated}`. */
  diff_checkpoint: command(
    "diff_checkpoint",
    { checkpointId: Type.String(), toCheckpointId: Type.Optional(Type.String()) },
    "Files changed from a checkpoint to the files now (or to another checkpoint), with the unified diff.",
  ),
  /** pith extra: answered with `{restored, deleted, undoCheckpointId, skipped, failed}`; refused during a run. */
  restore_checkpoint: command(
    "restore_checkpoint",
    {
      checkpointId: Type.String(),
      mode: Type.Optional(literals(["files", "conversation", "both"])),
      paths: Type.Optional(Type.Array(Type.String())),
    },
    "Put files (and/or the conversation) back as they were at a checkpoint, after an undo checkpoint.",
  ),
  /** pith extra: answered with the PermissionState in force; bad rules fail naming each one. */
  set_permissions: command("set_permissions", { rules: PermissionRulesInputSchema }, "Set the session's permission mode and rules."),
  ...EXTRA_COMMAND_SCHEMAS,
  /** pith extra: answered with `{servers}` once the host's MCP servers are set (they connect in the background). */
  set_mcp_servers: command(
    "set_mcp_servers",
    // Each entry is checked by the MCP layer (parse-config.ts) so errors name the server and field.
    { servers: Type.Record(Type.String(), Type.Unknown({ description: "{command, args?, env?, cwd?} | {type: \"http\" | \"sse\", url, headers?}" })) },
    "Replace the host-provided MCP servers (.mcp.json's mcpServers shape).",
  ),
  /** pith extra: answered with `{servers}`. */
  get_mcp_servers: command("get_mcp_servers", {}, "List MCP servers with their status and tools."),
  /** pith extra: answered with `{servers}` (empty when setting lsp.enabled is off). */
  get_lsp_servers: command("get_lsp_servers", {}, "List language servers: name, language, root, status, pid, error."),
  ...SESSION_COMMAND_SCHEMAS,
  ...SUBAGENT_COMMAND_SCHEMAS,
  ...TRUST_COMMAND_SCHEMAS,
} as const;

export type RpcCommandType = keyof typeof COMMAND_SCHEMAS;

/** Every command type string, in protocol order. */
export const COMMAND_TYPES: readonly RpcCommandType[] = Object.freeze(
  Object.keys(COMMAND_SCHEMAS) as RpcCommandType[],
);

const COMMAND_TYPE_SET: ReadonlySet<string> = new Set(COMMAND_TYPES);

export function isCommandType(value: unknown): value is RpcCommandType {
  return typeof value === "string" && COMMAND_TYPE_SET.has(value);
}

type Schemas = typeof COMMAND_SCHEMAS;
export type RpcCommandOf<T extends RpcCommandType> = Static<Schemas[T]>;
export type RpcCommand = { [K in RpcCommandType]: RpcCommandOf<K> }[RpcCommandType];

export const RpcCommandSchema = Type.Union(Object.values(COMMAND_SCHEMAS) as TSchema[], {
  description: "Any command; exactly one response answers it (prompt may add a late error response).",
});
