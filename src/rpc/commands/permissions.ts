// set_permissions (pith extra, README "Permissions and sandbox"): the session's permission mode
// and rule lists, for this process only (like every RPC setter, it never writes settings files).
import type { CommandHandler } from "./types.js";

export const set_permissions: CommandHandler<"set_permissions"> = (cmd, ctx) => ctx.session.permissions.set(cmd.rules);
