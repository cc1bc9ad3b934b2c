// What a command handler gets, and what it returns.
import type { CreateSessionParams, CreateSessionResult, OpenSessionInfo, RpcCommandOf, RpcCommandType } from "../../protocol/index.js";
import type { AgentSession } from "../../session/index.js";
import type { EventFramer } from "../event-frames.js";
import type { Heartbeat } from "../heartbeat.js";
import type { HostToolBridge } from "../host-tools.js";
import type { PromptResults } from "../prompt-results.js";

export interface CommandContext {
  session: AgentSession;
  framer: EventFramer;
  hostTools: HostToolBridge;
  /** Writes the `prompt_result` of each accepted prompting command. */
  promptResults: PromptResults;
  heartbeat: Heartbeat;
  /** pith's version (ready frame, get_integrations). */
  version: string;
  /** The protocol versions this connection's `ready` offered (negotiate_protocol accepts only these). */
  protocolVersions: readonly number[];
  /** Writes a second response for the same id (late prompt failures). */
  lateError(command: RpcCommandType, id: string | number | undefined, error: unknown): void;
  /** The process's sessions (create/close/list); absent where the front door has one session. */
  sessions?: SessionsPort;
  /** The handle of the session this command addressed. */
  slotId?: string;
}

/** What the multi-session commands need of the front door (src/rpc/session-router.ts). */
export interface SessionsPort {
  create(params: CreateSessionParams, from: AgentSession): Promise<CreateSessionResult>;
  close(id: string): Promise<void>;
  list(): OpenSessionInfo[];
}

/** Resolves with the response `data` (undefined → no `data` key, null → `"data": null`). Throws to fail. */
export type CommandHandler<T extends RpcCommandType> = (cmd: RpcCommandOf<T>, ctx: CommandContext) => unknown | Promise<unknown>;

export type CommandTable = { [K in RpcCommandType]: CommandHandler<K> };
