// set_host_tools: the host's tools call back through this front door's frames, so RPC builds them
// and hands the session the finished tools.
import type { CommandHandler } from "./types.js";

export const set_host_tools: CommandHandler<"set_host_tools"> = (cmd, ctx) => {
  const { tools, names } = ctx.hostTools.define(cmd.tools);
  ctx.session.setHostTools(tools);
  return { toolNames: names };
};
