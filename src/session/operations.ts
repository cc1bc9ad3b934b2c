// The session's typed operations, derived from the protocol's command table: every command type
// is either a session operation (answered by `AgentSession.handle`) or front-door work (framing,
// the event filter, delta streaming, the heartbeat, host tools, the process's session list, the
// health check that reports the front door's version). The split is by type, so a command added
// to the protocol fails the type check until it is put on one side or the other.
import type { RpcCommandOf, RpcCommandType, RpcResponseData } from "../protocol/index.js";
import type { Integrations } from "../protocol/index.js";
import type { PromptOutcome } from "./prompt-tracker.js";
import type { PromptHandle } from "./types.js";

/** Commands a front door answers itself; the session knows nothing of them. */
export const FRONT_DOOR_OP_TYPES = [
  /** Line framing (protocol version 2) is the transport's. */
  "negotiate_protocol",
  /** Which events are written is the writer's choice. */
  "set_event_filter",
  /** Delta-only `message_update` frames are a framing choice. */
  "set_delta_streaming",
  /** Heartbeat frames are written by the front door's timer. */
  "set_heartbeat",
  /** Host tools call back through the front door's own frames. */
  "set_host_tools",
  /** The process's many sessions are routed by the front door. */
  "create_session",
  "close_session",
  "get_open_sessions",
] as const satisfies readonly RpcCommandType[];

export type FrontDoorOpType = (typeof FRONT_DOOR_OP_TYPES)[number];

/** Every command type the session answers through `handle`. */
export type SessionOpType = Exclude<RpcCommandType, FrontDoorOpType>;

/** One operation: the command's fields (the wire's `id` and `sessionId` are ignored by the session). */
export type SessionOpOf<K extends SessionOpType> = RpcCommandOf<K>;

/** The discriminated union of every session operation, keyed by `type`. */
export type SessionOp = { [K in SessionOpType]: SessionOpOf<K> }[SessionOpType];

/** What a queued message (`steer`, `follow_up`) gives back: how it ended, once all its work did. */
export interface QueuedMessage {
  outcome: Promise<PromptOutcome>;
}

/**
 * Results that are more than the wire's `data`: a started prompt's handle (the wire answers with
 * an ack, then `prompt_result`), and the health check without the front door's version.
 */
interface ResultOverrides {
  prompt: PromptHandle;
  abort_and_prompt: PromptHandle;
  steer: QueuedMessage;
  follow_up: QueuedMessage;
  get_integrations: Omit<Integrations, "version">;
}

/** A response without `data` is an operation that returns nothing. */
type DataOrVoid<T> = [T] extends [undefined] ? void : T;

/** The result of an operation: the response schema's `data`, except where ResultOverrides says. */
export type SessionOpResult<K extends SessionOpType> = K extends keyof ResultOverrides ? ResultOverrides[K] : DataOrVoid<RpcResponseData<K>>;

/** One answer per operation type: the table inside the session (operation-table.ts) has this shape. */
export type OperationTable = { [K in SessionOpType]: (op: SessionOpOf<K>) => SessionOpResult<K> | Promise<SessionOpResult<K>> };

const FRONT_DOOR_SET: ReadonlySet<string> = new Set(FRONT_DOOR_OP_TYPES);

/** True for a command the session answers (`handle`); false for front-door work. */
export function isSessionOpType(type: RpcCommandType): type is SessionOpType {
  return !FRONT_DOOR_SET.has(type);
}
