// The command table: one handler per protocol command type.
import * as models from "./models.js";
import * as prompting from "./prompting.js";
import * as sessions from "./sessions.js";
import * as state from "./state.js";
import * as tools from "./tools.js";
import * as compat from "./compat.js";
import * as liveness from "./liveness.js";
import * as checkpoints from "./checkpoints.js";
import * as permissions from "./permissions.js";
import * as compatPi from "./compat-pi.js";
import * as protocol from "./protocol.js";
import * as mcp from "./mcp.js";
import * as sessionCatalog from "./session-catalog.js";
import * as multiSession from "./multi-session.js";
import * as subagents from "./subagents.js";
import * as trust from "./trust.js";
import type { CommandTable } from "./types.js";

export { onArrival, type Deferred } from "./arrivals.js";

export const COMMANDS: CommandTable = {
  ...prompting,
  ...state,
  ...models,
  ...sessions,
  ...tools,
  ...compat,
  ...liveness,
  ...checkpoints,
  ...permissions,
  ...compatPi,
  ...protocol,
  ...mcp,
  ...sessionCatalog,
  ...multiSession,
  ...subagents,
  ...trust,
};

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
