// The `get_state` view of a session, plus pith's extras.
import type { RpcSessionState } from "../protocol/index.js";
import type { LspServerStatus, PermissionStateWire, ProjectTrustStateWire, SandboxStateWire } from "../shared/schema/index.js";
import type { Tool } from "../tools/types.js";
import type { Conversation } from "./conversation.js";
import type { SessionSettings } from "./settings.js";

/**
 * The wire's RpcSessionState plus what pith always fills in: the prompt and tool dump (optional
 * on the wire), the auto-retry switch and pi's name for the queue length.
 */
export type SessionState = RpcSessionState & {
  autoRetryEnabled: boolean;
  /** pi's name for `queuedMessageCount`. */
  pendingMessageCount: number;
  systemPrompt: string;
  dumpTools: Array<{ name: string; description: string; parameters: unknown }>;
  permissions: PermissionStateWire;
  sandbox: SandboxStateWire;
  projectTrust: ProjectTrustStateWire;
};

/** What the `get_state` view is read from. */
export interface SessionStateSource {
  conversation: Conversation;
  settings: SessionSettings;
  isStreaming: boolean;
  isCompacting: boolean;
  isSettled: boolean;
  autoCompactionEnabled: boolean;
  queuedMessageCount: number;
  systemPrompt: string;
  tools: Tool[];
  permissions: PermissionStateWire;
  sandbox: SandboxStateWire;
  projectTrust: ProjectTrustStateWire;
  /** Built-in tools not offered for a missing dependency, and why. */
  unavailableTools?: Array<{ name: string; reason: string }>;
  /** Language servers and why any is not used; absent when `lsp.enabled` is off. */
  lspServers?: LspServerStatus[];
}

export function buildSessionState(s: SessionStateSource): SessionState {
  const { conversation: c, settings } = s;
  return {
    model: c.model,
    thinkingLevel: c.thinkingLevel,
    isStreaming: s.isStreaming,
    isCompacting: s.isCompacting,
    isSettled: s.isSettled,
    steeringMode: settings.steeringMode,
    followUpMode: settings.followUpMode,
    interruptMode: settings.interruptMode,
    sessionFile: c.log.path,
    sessionId: c.log.sessionId,
    sessionName: c.log.name,
    autoCompactionEnabled: s.autoCompactionEnabled,
    autoRetryEnabled: settings.retry.enabled,
    messageCount: c.messages.length,
    queuedMessageCount: s.queuedMessageCount,
    pendingMessageCount: s.queuedMessageCount,
    todoPhases: c.todos.get(),
    systemPrompt: s.systemPrompt,
    dumpTools: s.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
    permissions: s.permissions,
    sandbox: s.sandbox,
    projectTrust: s.projectTrust,
    ...(s.unavailableTools?.length ? { unavailableTools: s.unavailableTools } : {}),
    ...(s.lspServers ? { lspServers: s.lspServers } : {}),
  };
}
