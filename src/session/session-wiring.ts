// What only the composition root wires into a session: the collaborators behind the facade
// (extensions to attach, checkpoints to start, discovery to track, the subagent hooks a parent's
// task tool reports through, permissions a subagent follows, the settings a trusted folder brings).
// Front doors never hold it: they drive the session through its facade and `handle`.
import type { SessionCatalog } from "./session-catalog.js";
import type { SessionCheckpoints } from "./session-checkpoints.js";
import type { SessionExtensions } from "./session-extensions.js";
import type { SessionHistory } from "./session-history.js";
import type { SessionLsp } from "./session-lsp.js";
import type { SessionMcp } from "./session-mcp.js";
import type { SessionModels } from "./session-models.js";
import type { SessionModes } from "./session-modes.js";
import type { SessionPermissions } from "./session-permissions.js";
import type { SessionTools } from "./session-tools.js";
import type { SessionTrust } from "./session-trust.js";
import type { SessionSettings } from "./settings.js";
import type { SubagentRegistry } from "./subagent-registry.js";
import type { UserBash } from "./user-bash.js";

export interface SessionWiring {
  readonly models: SessionModels;
  readonly history: SessionHistory;
  readonly tools: SessionTools;
  readonly modes: SessionModes;
  readonly extensions: SessionExtensions;
  readonly bash: UserBash;
  readonly checkpoints: SessionCheckpoints;
  readonly permissions: SessionPermissions;
  readonly mcp: SessionMcp;
  readonly lsp: SessionLsp;
  readonly catalog: SessionCatalog;
  readonly trust: SessionTrust;
  readonly subagents: SubagentRegistry;
  /** New settings under an idle session (the folder's project layer was loaded). */
  reconfigure(next: SessionSettings): Promise<void>;
  /** Before a tool other than edit/write changes files: each judged as an edit by the permission rules. */
  approveFileWrites(paths: readonly string[], call: { toolCallId: string; signal: AbortSignal }): Promise<void>;
}

const WIRING = new WeakMap<object, SessionWiring>();

/** Called once by the session's constructor. */
export function registerWiring(session: object, wiring: SessionWiring): void {
  WIRING.set(session, wiring);
}

/** The wiring of a session the caller built (the composition root and the session's own tests). */
export function sessionWiring(session: object): SessionWiring {
  const wiring = WIRING.get(session);
  if (!wiring) throw new Error("not an AgentSession");
  return wiring;
}
