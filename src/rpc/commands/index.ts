// The command table: one handler per protocol command type.
import * as models from "./models.js";
import * as prompting from "./prompting.js";
import * as sessions from "./sessions.js";
import * as state from "./state.js";
import * as tools from "./tools.js";
import * as compat from "./compat.js";
import * as sessionCatalog from "./session-catalog.js";
import * as multiSession from "./multi-session.js";
import type { CommandTable } from "./types.js";

export const COMMANDS: CommandTable = { ...prompting, ...state, ...models, ...sessions, ...tools, ...compat, ...sessionCatalog, ...multiSession };

/** Commands answered at once even while a long command (bash, compact, …) is running. */
export const CONTROL_COMMANDS: ReadonlySet<string> = new Set(["abort", "abort_bash", "abort_retry", "get_state", "close_session", "get_open_sessions"]);

export type { CommandContext } from "./types.js";
