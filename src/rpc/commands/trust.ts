// get_project_trust and trust_project (pith): the session's folder trust, through the session's
// port to the composition root. `available_commands_update` follows by itself when the folder's
// extensions registered commands (the server checks after every command).
import type { CommandHandler } from "./types.js";

export const get_project_trust: CommandHandler<"get_project_trust"> = (_cmd, ctx) => ctx.session.trust.report();

export const trust_project: CommandHandler<"trust_project"> = (cmd, ctx) => ctx.session.trust.grant({ persist: cmd.persist === true });
