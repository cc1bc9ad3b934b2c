// set_heartbeat (the front door's timer) and get_integrations (the session's health check with
// the front door's version).
import type { CommandHandler } from "./types.js";

export const set_heartbeat: CommandHandler<"set_heartbeat"> = (cmd, ctx) => ({ intervalMs: ctx.heartbeat.set(cmd.intervalMs) });

export const get_integrations: CommandHandler<"get_integrations"> = async (cmd, ctx) => ({ version: ctx.version, ...(await ctx.session.handle(cmd)) });
