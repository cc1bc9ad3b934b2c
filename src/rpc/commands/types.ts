// What a command handler gets, and what it returns.
import type { RpcCommandOf, RpcCommandType } from "../../protocol/index.js";
import type { AgentSession } from "../../session/index.js";
import type { EventFramer } from "../event-frames.js";
import type { HostToolBridge } from "../host-tools.js";

export interface CommandContext {
  session: AgentSession;
  framer: EventFramer;
  hostTools: HostToolBridge;
  /** Writes a second response for the same id (late prompt failures). */
  lateError(command: RpcCommandType, id: string | number | undefined, error: unknown): void;
}

/** Resolves with the response `data` (undefined → no `data` key, null → `"data": null`). Throws to fail. */
export type CommandHandler<T extends RpcCommandType> = (cmd: RpcCommandOf<T>, ctx: CommandContext) => unknown | Promise<unknown>;

export type CommandTable = { [K in RpcCommandType]: CommandHandler<K> };
