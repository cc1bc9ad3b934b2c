// The command table: one handler per protocol command type.
import * as models from "./models.js";
import * as prompting from "./prompting.js";
import * as sessions from "./sessions.js";
import * as state from "./state.js";
import * as tools from "./tools.js";
import * as compat from "./compat.js";
import * as sessionCatalog from "./session-catalog.js";
import type { CommandTable } from "./types.js";

export const COMMANDS: CommandTable = { ...prompting, ...state, ...models, ...sessions, ...tools, ...compat, ...sessionCatalog };

/** Commands answered at once even while a long command (bash, compact, …) is running. */
export const CONTROL_COMMANDS: ReadonlySet<string> = new Set(["abort", "abort_bash", "abort_retry", "get_state"]);

export type { CommandContext } from "./types.js";
