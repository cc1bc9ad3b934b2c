// The command table: every session operation goes through one generic path
// (`session.handle(cmd)`); front-door work (framing, the event filter, delta streaming, the
// heartbeat, host tools, the process's sessions) and the prompting acks have their own handlers.
import { COMMAND_TYPES } from "../../protocol/index.js";
import { isSessionOpType, type FrontDoorOpType, type SessionOp, type SessionOpType } from "../../session/index.js";
import * as liveness from "./liveness.js";
import * as multiSession from "./multi-session.js";
import * as prompting from "./prompting.js";
import * as protocol from "./protocol.js";
import * as state from "./state.js";
import * as tools from "./tools.js";
import type { CommandContext, CommandHandler, CommandTable } from "./types.js";

export { onArrival, type Deferred } from "./arrivals.js";

/** Answers a session operation with its result as the response's `data`. */
const viaSession = (cmd: SessionOp, ctx: CommandContext): Promise<unknown> => ctx.session.handle(cmd);

const SESSION_OPS = Object.fromEntries(COMMAND_TYPES.filter(isSessionOpType).map((type) => [type, viaSession])) as {
  [K in SessionOpType]: CommandHandler<K>;
};

/** Every front-door type has its handler here (the type says so). */
const FRONT_DOOR: { [K in FrontDoorOpType]: CommandHandler<K> } = {
  negotiate_protocol: protocol.negotiate_protocol,
  set_event_filter: protocol.set_event_filter,
  set_delta_streaming: state.set_delta_streaming,
  set_heartbeat: liveness.set_heartbeat,
  set_host_tools: tools.set_host_tools,
  create_session: multiSession.create_session,
  close_session: multiSession.close_session,
  get_open_sessions: multiSession.get_open_sessions,
};

/** Session operations whose answer RPC completes: prompt acks and `prompt_result`, state and version fields. */
const COMPLETED: Partial<CommandTable> = {
  ...prompting,
  get_state: state.get_state,
  get_integrations: liveness.get_integrations,
};

export const COMMANDS: CommandTable = { ...SESSION_OPS, ...COMPLETED, ...FRONT_DOOR };

/** Commands answered at once even while a long command (bash, compact, …) is running. */
export const CONTROL_COMMANDS: ReadonlySet<string> = new Set([
  "abort",
  "abort_bash",
  "abort_retry",
  "get_state",
  "set_heartbeat",
  "get_integrations",
  "negotiate_protocol",
  "set_event_filter",
  "close_session",
  "get_open_sessions",
  "get_subagents",
  "get_subagent_messages",
  "set_subagent_subscription",
]);

export type { CommandContext } from "./types.js";
