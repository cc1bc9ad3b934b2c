// The response envelope and the `data` each command answers with.
import Type, { type Static, type TSchema } from "typebox";
import {
  AgentMessageSchema,
  CompactionResultSchema,
  ModelSchema,
  PermissionStateSchema,
  ProjectTrustStateSchema,
  SandboxStateSchema,
  ThinkingLevelSchema,
  TodoPhaseSchema,
  literals,
  McpServerStatusSchema,
  LspServerStatusSchema,
} from "../shared/schema/index.js";
import { RpcIdSchema, type RpcCommandType } from "./commands.js";
import { LIVENESS_RESPONSE_SCHEMAS } from "./liveness.js";
import { EXTRA_RESPONSE_DATA_SCHEMAS } from "./extra-commands.js";
import { SESSION_RESPONSE_SCHEMAS } from "./session-commands.js";
import { SUBAGENT_RESPONSE_SCHEMAS } from "./subagent-commands.js";
import { TRUST_RESPONSE_SCHEMAS } from "./trust-commands.js";

const Str = Type.String();
const Num = Type.Number();
const Bool = Type.Boolean();
const Opt = Type.Optional;

/** `bash` answers with this when the command exits. */
export const BashResultSchema = Type.Object({
  output: Str,
  exitCode: Opt(Num),
  cancelled: Bool,
  truncated: Bool,
  totalLines: Num,
  totalBytes: Num,
  outputLines: Num,
  outputBytes: Num,
  artifactId: Opt(Str),
  newCwd: Opt(Str),
  fullOutputPath: Opt(Str),
});
/** `get_session_stats` answers with this. */
export const SessionStatsSchema = Type.Object({
  sessionFile: Opt(Str),
  sessionId: Str,
  userMessages: Num,
  assistantMessages: Num,
  toolCalls: Num,
  toolResults: Num,
  totalMessages: Num,
  tokens: Type.Object({ input: Num, output: Num, cacheRead: Num, cacheWrite: Num, total: Num }),
  premiumRequests: Num,
  cost: Num,
  /** pith: damaged lines and entries of the session file that were left out on load. */
  skippedEntries: Num,
  /** pi: tokens in context (null right after a compaction), the model's window, percent used. */
  contextUsage: Opt(
    Type.Object({ tokens: Type.Union([Num, Type.Null()]), contextWindow: Num, percent: Type.Union([Num, Type.Null()]) }),
  ),
});

export const RpcSessionStateSchema = Type.Object({
  model: Opt(ModelSchema),
  thinkingLevel: Opt(ThinkingLevelSchema),
  isStreaming: Bool,
  isCompacting: Bool,
  /** oh-my-pi: no run, retry wait, compaction or queued message (the session_settled predicate). */
  isSettled: Opt(Bool),
  steeringMode: literals(["all", "one-at-a-time"]),
  followUpMode: literals(["all", "one-at-a-time"]),
  interruptMode: literals(["immediate", "wait"]),
  sessionFile: Opt(Str),
  sessionId: Str,
  sessionName: Opt(Str),
  autoCompactionEnabled: Bool,
  messageCount: Type.Number(),
  queuedMessageCount: Type.Number(),
  todoPhases: Type.Array(TodoPhaseSchema),
  systemPrompt: Opt(Str),
  dumpTools: Opt(Type.Array(Type.Object({ name: Str, description: Str, parameters: Type.Unknown() }))),
  /** pith: whether file checkpoints are taken, and why not (setting off, git missing, folder too big). */
  fileCheckpoints: Opt(Type.Object({ enabled: Bool, reason: Opt(Str) })),
  /** pith: the permission mode and rules in force. */
  permissions: Opt(PermissionStateSchema),
  /** pith: the sandbox of the bash tool and command (`mode: "off"` when none). */
  sandbox: Opt(SandboxStateSchema),
  /** pith: built-in tools not offered because a dependency is missing, and why. */
  unavailableTools: Opt(Type.Array(Type.Object({ name: Str, reason: Str }))),
  /** pith: the language servers and why any is not used (absent when setting lsp.enabled is off). */
  lspServers: Opt(Type.Array(LspServerStatusSchema)),
  /** pith: whether the session's folder is trusted (its project layer loaded), and who decided. */
  projectTrust: Opt(ProjectTrustStateSchema),
});
export type RpcSessionState = Static<typeof RpcSessionStateSchema>;

const Cancelled = Type.Object({ cancelled: Bool });
const BranchResult = Type.Object({ text: Str, cancelled: Bool });
const BranchMessages = Type.Object({ messages: Type.Array(Type.Object({ entryId: Str, text: Str })) });
export const SlashCommandInfoSchema = Type.Object({
  name: Str,
  description: Opt(Str),
  source: literals(["extension", "prompt", "skill"]),
  location: Opt(Str),
  path: Opt(Str),
});

const CheckpointKind = literals(["prompt", "restore"]);
export const CheckpointItemSchema = Type.Object({ checkpointId: Str, entryId: Str, createdAt: Str, prompt: Str, kind: CheckpointKind });
export const CheckpointDiffSchema = Type.Object({
  files: Type.Array(
    Type.Object({ path: Str, status: literals(["added", "modified", "deleted"]), additions: Num, deletions: Num, binary: Opt(Type.Literal(true)) }),
  ),
  patch: Str,
  truncated: Bool,
});
export const RestoreCheckpointResultSchema = Type.Object({
  restored: Type.Array(Str),
  deleted: Type.Array(Str),
  undoCheckpointId: Str,
  skipped: Type.Array(Type.Object({ path: Str, reason: Str })),
  failed: Type.Array(Type.Object({ path: Str, error: Str })),
});

/** `data` of a successful response per command; `Type.Undefined()` = the key is absent. */
export const RESPONSE_DATA_SCHEMAS = {
  prompt: Type.Undefined(),
  steer: Type.Undefined(),
  follow_up: Type.Undefined(),
  abort: Type.Undefined(),
  abort_and_prompt: Type.Undefined(),
  new_session: Cancelled,
  get_state: RpcSessionStateSchema,
  set_todos: Type.Object({ todoPhases: Type.Array(TodoPhaseSchema) }),
  set_host_tools: Type.Object({ toolNames: Type.Array(Str) }),
  set_model: ModelSchema,
  cycle_model: Type.Union([
    Type.Object({ model: ModelSchema, thinkingLevel: Opt(ThinkingLevelSchema), isScoped: Bool }),
    Type.Null(),
  ]),
  get_available_models: Type.Object({ models: Type.Array(ModelSchema) }),
  set_thinking_level: Type.Undefined(),
  cycle_thinking_level: Type.Union([Type.Object({ level: ThinkingLevelSchema }), Type.Null()]),
  set_steering_mode: Type.Undefined(),
  set_follow_up_mode: Type.Undefined(),
  set_interrupt_mode: Type.Undefined(),
  compact: CompactionResultSchema,
  set_auto_compaction: Type.Undefined(),
  set_auto_retry: Type.Undefined(),
  abort_retry: Type.Undefined(),
  bash: BashResultSchema,
  abort_bash: Type.Undefined(),
  get_session_stats: SessionStatsSchema,
  export_html: Type.Object({ path: Str }),
  switch_session: Cancelled,
  resume_session: Cancelled,
  branch: BranchResult,
  get_branch_messages: BranchMessages,
  get_last_assistant_text: Type.Object({ text: Opt(Str) }),
  set_session_name: Type.Undefined(),
  get_messages: Type.Object({ messages: Type.Array(AgentMessageSchema) }),
  fork: BranchResult,
  get_fork_messages: BranchMessages,
  clone: Cancelled,
  get_commands: Type.Object({ commands: Type.Array(SlashCommandInfoSchema) }),
  set_delta_streaming: Type.Undefined(),
  ...LIVENESS_RESPONSE_SCHEMAS,
  get_checkpoints: Type.Object({ checkpoints: Type.Array(CheckpointItemSchema) }),
  diff_checkpoint: CheckpointDiffSchema,
  restore_checkpoint: RestoreCheckpointResultSchema,
  set_permissions: PermissionStateSchema,
  ...EXTRA_RESPONSE_DATA_SCHEMAS,
  set_mcp_servers: Type.Object({ servers: Type.Array(McpServerStatusSchema) }),
  get_mcp_servers: Type.Object({ servers: Type.Array(McpServerStatusSchema) }),
  get_lsp_servers: Type.Object({ servers: Type.Array(LspServerStatusSchema) }),
  ...SESSION_RESPONSE_SCHEMAS,
  ...SUBAGENT_RESPONSE_SCHEMAS,
  ...TRUST_RESPONSE_SCHEMAS,
} as const satisfies Record<RpcCommandType, TSchema>;

export type RpcResponseData<T extends RpcCommandType> = Static<(typeof RESPONSE_DATA_SCHEMAS)[T]>;

export const RpcSuccessResponseSchema = Type.Object(
  {
    id: Opt(RpcIdSchema),
    type: Type.Literal("response"),
    command: Str,
    success: Type.Literal(true),
    data: Opt(Type.Unknown()),
  },
  { description: "A command succeeded; data only for commands that return data." },
);
export const RpcErrorResponseSchema = Type.Object(
  {
    id: Opt(RpcIdSchema),
    type: Type.Literal("response"),
    command: Str,
    success: Type.Literal(false),
    error: Str,
    /** oh-my-pi's machine-readable reason (get_messages_page: session_busy, stale_cursor) or pith's (unknown_since, unknown_session). */
    code: Opt(Str),
  },
  { description: "A command failed, could not be parsed (command \"parse\") or is unknown." },
);
export const RpcResponseSchema = Type.Union([RpcSuccessResponseSchema, RpcErrorResponseSchema]);
export type RpcResponse = Static<typeof RpcResponseSchema>;
