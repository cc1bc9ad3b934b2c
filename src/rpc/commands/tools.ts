// Host tools, extension commands, user bash and manual compaction.
import { checkHostToolConflicts } from "../host-tools.js";
import type { CommandHandler } from "./types.js";

export const set_host_tools: CommandHandler<"set_host_tools"> = (cmd, ctx) => {
  const { tools, names } = ctx.hostTools.define(cmd.tools);
  checkHostToolConflicts(names, ctx.session.rt.nonHostToolNames());
  ctx.session.rt.hostTools = tools;
  return { toolNames: names };
};

export const get_commands: CommandHandler<"get_commands"> = (_cmd, ctx) => ({
  commands: ctx.session.deps.extensions?.commands() ?? [],
});

export const bash: CommandHandler<"bash"> = (cmd, ctx) => ctx.userBash.run(cmd.command);
export const abort_bash: CommandHandler<"abort_bash"> = (_cmd, ctx) => {
  ctx.userBash.abort();
};

export const compact: CommandHandler<"compact"> = (cmd, ctx) => ctx.session.rt.compactor.compact(cmd.customInstructions);
