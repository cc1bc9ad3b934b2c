// The one table that says which part of the session answers each operation. Every session
// operation type has exactly one entry (the OperationTable type makes a missing one a type error);
// front doors send operations through `AgentSession.handle` and never reach into the parts.
import type { ExtensionRunner } from "../extensions/index.js";
import { PithError } from "../shared/errors.js";
import type { CompactionResult, UserContent } from "../shared/types.js";
import type { SessionStorage } from "../store/storage.js";
import type { OutputSpec } from "../tools/index.js";
import { checkIntegrations } from "./integrations.js";
import { PAGE_BUSY_ERROR, PageError, pageMessages } from "./messages-page.js";
import type { OperationTable, SessionOpOf } from "./operations.js";
import type { PromptId, PromptOutcome } from "./prompt-tracker.js";
import type { SessionCatalog } from "./session-catalog.js";
import type { SessionCheckpoints } from "./session-checkpoints.js";
import type { SessionExtensions } from "./session-extensions.js";
import type { SessionHistory } from "./session-history.js";
import type { SessionLsp } from "./session-lsp.js";
import type { SessionMcp } from "./session-mcp.js";
import type { SessionModels } from "./session-models.js";
import type { SessionModes } from "./session-modes.js";
import type { SessionPermissions } from "./session-permissions.js";
import type { SessionState } from "./session-state.js";
import type { SessionTools } from "./session-tools.js";
import type { SessionTrust } from "./session-trust.js";
import { availableCommands } from "./slash-commands.js";
import type { SubagentRegistry } from "./subagent-registry.js";
import { readSubagentTranscript } from "./subagent-transcript.js";
import type { PromptHandle, PromptOptions } from "./types.js";
import type { UserBash } from "./user-bash.js";

/** The parts and facade calls the table hands each operation to. */
export interface OperationParts {
  models: SessionModels;
  history: SessionHistory;
  tools: SessionTools;
  modes: SessionModes;
  extensions: SessionExtensions;
  bash: UserBash;
  checkpoints: SessionCheckpoints;
  permissions: SessionPermissions;
  mcp: SessionMcp;
  lsp: SessionLsp;
  catalog: SessionCatalog;
  trust: SessionTrust;
  subagents: SubagentRegistry;
  runner(): ExtensionRunner | undefined;
  getState(): SessionState;
  prompt(text: string, options: PromptOptions): PromptHandle;
  steer(text: string, images: UserContent[] | undefined, promptId: PromptId | undefined): Promise<PromptOutcome>;
  followUp(text: string, images: UserContent[] | undefined, promptId: PromptId | undefined, output: OutputSpec | undefined): Promise<PromptOutcome>;
  compileOutputSchema(schema: unknown): Promise<OutputSpec>;
  abort(): Promise<void>;
  abortRetry(): void;
  clearQueue(): { steering: string[]; followUp: string[] };
  compact(customInstructions?: string): Promise<CompactionResult>;
  /** Where a subagent's session file is read from (files or a database). */
  storage: SessionStorage;
}

/**
 * Starts with the optional output schema compiled (a bad one is refused before anything changes);
 * without one it starts at once, so a message is queued in the order its command arrived.
 */
function withOutput<T>(p: OperationParts, schema: unknown, start: (output: OutputSpec | undefined) => T): T | Promise<T> {
  return schema === undefined ? start(undefined) : p.compileOutputSchema(schema).then(start);
}

/** prompt, steer, follow_up, abort, abort_and_prompt, clear_queue, compact. */
function prompting(p: OperationParts): Pick<OperationTable, "prompt" | "steer" | "follow_up" | "abort" | "abort_and_prompt" | "clear_queue" | "compact" | "abort_retry"> {
  return {
    prompt: (op) => withOutput(p, op.outputSchema, (output) => p.prompt(op.message, { images: op.images, streamingBehavior: op.streamingBehavior, promptId: op.id, output })),
    steer: (op) => ({ outcome: p.steer(op.message, op.images, op.id) }),
    follow_up: (op) => withOutput(p, op.outputSchema, (output) => ({ outcome: p.followUp(op.message, op.images, op.id, output) })),
    abort: () => p.abort(),
    abort_and_prompt: async (op) => {
      const output = op.outputSchema === undefined ? undefined : await p.compileOutputSchema(op.outputSchema);
      await p.abort();
      return p.prompt(op.message, { images: op.images, promptId: op.id, output });
    },
    clear_queue: () => p.clearQueue(),
    compact: (op) => p.compact(op.customInstructions),
    abort_retry: () => p.abortRetry(),
  };
}

/** get_state, the per-session switches, models and thinking levels. */
function settings(p: OperationParts) {
  return {
    get_state: async () => ({ ...p.getState(), fileCheckpoints: await p.checkpoints.state() }),
    set_steering_mode: (op) => p.modes.setSteeringMode(op.mode),
    set_follow_up_mode: (op) => p.modes.setFollowUpMode(op.mode),
    set_interrupt_mode: (op) => p.modes.setInterruptMode(op.mode),
    set_auto_compaction: (op) => p.modes.setAutoCompaction(op.enabled),
    set_auto_retry: (op) => p.modes.setAutoRetry(op.enabled),
    set_todos: (op) => ({ todoPhases: p.tools.setTodos(op.phases) }),
    set_model: (op) => p.models.set(op.provider, op.modelId),
    cycle_model: () => p.models.cycle(),
    get_available_models: async () => ({ models: await p.models.discovered() }),
    set_thinking_level: (op) => p.models.setThinkingLevel(op.level),
    cycle_thinking_level: () => p.models.cycleThinkingLevel(),
    get_available_thinking_levels: () => ({ levels: p.models.availableThinkingLevels() }),
    set_permissions: (op) => p.permissions.set(op.rules),
    get_project_trust: () => p.trust.report(),
    trust_project: (op) => p.trust.grant({ persist: op.persist === true }),
    get_integrations: () => checkIntegrations(p.models, p.runner()),
  } satisfies Partial<OperationTable>;
}

/** The session file and its history; session files for pickers. */
function files(p: OperationParts) {
  const h = p.history;
  return {
    new_session: (op) => h.newSession(op.parentSession),
    switch_session: (op) => h.switchTo(op.sessionPath),
    resume_session: (op) => h.switchTo(op.sessionFile),
    branch: (op) => h.branch(op.entryId),
    fork: (op) => h.branch(op.entryId),
    clone: () => h.clone(),
    get_branch_messages: () => ({ messages: h.branchMessages() }),
    get_fork_messages: () => ({ messages: h.branchMessages() }),
    get_messages: () => ({ messages: h.messages }),
    get_messages_page: (op) => messagesPage(p, op),
    get_last_assistant_text: () => {
      const text = h.lastAssistantText();
      return text === undefined ? {} : { text };
    },
    set_session_name: (op) => h.setName(op.name),
    get_session_stats: () => h.stats(),
    export_html: async (op) => ({ path: await h.exportHtml(op.outputPath) }),
    list_sessions: (op) => p.catalog.list({ cwd: op.cwd, all: op.all, limit: op.limit, cursor: op.cursor, query: op.query }),
    get_entries: (op) => p.catalog.entries(op.since),
    get_tree: () => p.catalog.tree(),
    open_session: (op) => p.catalog.open(op.sessionDir),
    delete_session: (op) => p.catalog.delete(op.sessionPath),
  } satisfies Partial<OperationTable>;
}

/** Shell commands, slash commands, checkpoints, MCP and language servers, subagents. */
function services(p: OperationParts) {
  return {
    bash: (op) => p.bash.run(op.command),
    abort_bash: () => p.bash.abort(),
    get_commands: () => ({ commands: p.extensions.commands() }),
    get_available_commands: () => ({ commands: availableCommands(p.extensions.commands()) }),
    get_checkpoints: async () => ({ checkpoints: await p.checkpoints.list() }),
    diff_checkpoint: (op) => p.checkpoints.diff(op.checkpointId, op.toCheckpointId),
    restore_checkpoint: (op) => p.checkpoints.restore(op.checkpointId, op.mode ?? "files", op.paths),
    set_mcp_servers: async (op) => ({ servers: await p.mcp.setHostServers(op.servers) }),
    get_mcp_servers: () => ({ servers: p.mcp.servers() }),
    get_lsp_servers: () => ({ servers: p.lsp.servers() }),
    set_subagent_subscription: (op) => {
      p.subagents.setSubscription(op.level);
      return { level: p.subagents.subscription };
    },
    get_subagents: () => ({ subagents: p.subagents.list() }),
    get_subagent_messages: (op) => {
      const sel: { subagentId?: string; sessionFile?: string } = {};
      if (op.subagentId !== undefined) sel.subagentId = op.subagentId;
      if (op.sessionFile !== undefined) sel.sessionFile = op.sessionFile;
      return readSubagentTranscript(p.storage, p.subagents.resolveSessionFile(sel), op.fromByte ?? 0);
    },
  } satisfies Partial<OperationTable>;
}

/** One page of a stable snapshot of the context; refused while the context is changing. */
function messagesPage(p: OperationParts, op: SessionOpOf<"get_messages_page">) {
  const state = p.getState();
  if (state.isStreaming || state.isCompacting) throw new PageError(PAGE_BUSY_ERROR, "session_busy");
  const messages = p.history.messages;
  const snapshot = { sessionId: p.history.sessionId, leafId: p.history.leafId, messageCount: messages.length };
  return pageMessages(messages, snapshot, { cursor: op.cursor, limit: op.limit });
}

/** Builds the table over a session's parts. */
export function operationTable(p: OperationParts): OperationTable {
  return { ...prompting(p), ...settings(p), ...files(p), ...services(p) };
}

/** Runs one operation through the table. */
export function runOperation(table: OperationTable, op: { type: keyof OperationTable }): unknown {
  const answer = table[op.type] as ((o: unknown) => unknown) | undefined;
  if (!answer) throw new PithError("invalid_request", `Not a session operation: ${String(op.type)}`);
  return answer(op);
}
