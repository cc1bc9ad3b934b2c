// The session's one door: everything outside src/session/ imports from here and nothing else
// (test/arch checks it). The facade is AgentSession; the rest is what a composition root needs to
// build one (storage, system prompt, context files) and the types front doors speak.
export { AgentSession, type AgentSessionOptions, type SessionSandbox } from "./agent-session.js";
export type { GrantStore, PermissionAsker, PermissionReply, PermissionRequest, PermissionSettings } from "./session-permissions.js";
export { BUSY_ERROR, type PromptHandle, type PromptOptions, type StreamingBehavior } from "./types.js";
export type { SessionListener } from "./event-hub.js";
export type { PromptError, PromptId, PromptOutcome, PromptStatus } from "./prompt-tracker.js";
export type { ActivityPhase, ActivitySnapshot } from "./liveness.js";
export type { SessionState } from "./session-state.js";
export type { SessionStats } from "./stats.js";
export type { BashResult } from "./user-bash.js";
export type { CycledModel } from "./session-models.js";
export type { ExtensionBindings } from "./extension-host.js";
export type { TodoAccess } from "./session-tools.js";
export type { SessionSettings, FileCheckpointSettings } from "./settings.js";
export type { CheckpointItem, CheckpointFeatureState, RestoreCheckpointResult, RestoreMode } from "./session-checkpoints.js";
export type { McpWiring, SessionMcp } from "./session-mcp.js";
export type { LspWiring, SessionLsp } from "./session-lsp.js";
export type { ProjectTrustPort, SessionTrust } from "./session-trust.js";
export type { QueueMode } from "./queues.js";
export type { ListSessionsParams, OpenSessionResult } from "./session-catalog.js";
export type { SessionSummary, ListSessionsResult } from "../store/session-list.js";
export type { SessionTreeNode, EntriesPage } from "../store/entry-views.js";

// ── building a session ──
export { createJsonlStorage } from "../store/jsonl-storage.js";
export type { SessionStorage } from "../store/storage.js";
export type { SessionLog } from "../store/session-log.js";
export type { SessionHeader, SessionEntry } from "../store/entry-types.js";
export { releaseAllLocks } from "../store/lock.js";
export { buildSystemPrompt, resolvePromptArg } from "./system-prompt.js";
export { discoverContextFiles } from "./context-files.js";
export { findRuleFiles } from "../rules/rule-files.js";

// ── types front doors pass through (host tools, extension UI) ──
export type { Tool, ToolContext } from "../tools/types.js";
export type { ExtensionUi, LoadedExtensions, ExtensionCommandInfo } from "../extensions/index.js";
export { SubagentRegistry, type AgentProgress, type SubagentLifecycle, type SubagentProgressPayload, type SubagentSnapshot, type SubagentSubscriptionLevel } from "./subagent-registry.js";
export { readSubagentTranscript, type SubagentTranscript } from "./subagent-transcript.js";
export { convertToLlm } from "./convert-to-llm.js";

// ── typed operations: the protocol's command table as the session answers it ──
export {
  FRONT_DOOR_OP_TYPES,
  isSessionOpType,
  type FrontDoorOpType,
  type OperationTable,
  type QueuedMessage,
  type SessionOp,
  type SessionOpOf,
  type SessionOpResult,
  type SessionOpType,
} from "./operations.js";
export { availableCommands, type AvailableSlashCommand } from "./slash-commands.js";
export { PAGE_BUSY_ERROR, PAGE_STALE_ERROR, PageError } from "./messages-page.js";

// ── the composition root's hold on a session it built (src/cli only; test/arch checks it) ──
export { sessionWiring, type SessionWiring } from "./session-wiring.js";
