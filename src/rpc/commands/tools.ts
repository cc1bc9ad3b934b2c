// Host tools, extension commands, user bash and manual compaction.
import type { CommandHandler } from "./types.js";

export const set_host_tools: CommandHandler<"set_host_tools"> = (cmd, ctx) => {
  const { tools, names } = ctx.hostTools.define(cmd.tools);
  ctx.session.tools.setHostTools(tools);
  return { toolNames: names };
};

export const get_commands: CommandHandler<"get_commands"> = (_cmd, ctx) => ({ commands: ctx.session.extensions.commands() });

/** Run by itself (in-process callers); over the wire a `bash` is admitted on arrival (see arrivals.ts). */
export const bash: CommandHandler<"bash"> = (cmd, ctx) => ctx.session.bash.run(cmd.command);
export const abort_bash: CommandHandler<"abort_bash"> = (_cmd, ctx) => {
  ctx.session.bash.abort();
};

export const compact: CommandHandler<"compact"> = (cmd, ctx) => ctx.session.compact(cmd.customInstructions);
