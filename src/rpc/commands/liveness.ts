// set_heartbeat and get_integrations.
import { checkIntegrations } from "../integrations.js";
import type { CommandHandler } from "./types.js";

export const set_heartbeat: CommandHandler<"set_heartbeat"> = (cmd, ctx) => ({ intervalMs: ctx.heartbeat.set(cmd.intervalMs) });

export const get_integrations: CommandHandler<"get_integrations"> = (_cmd, ctx) => checkIntegrations(ctx.session, ctx.version);
