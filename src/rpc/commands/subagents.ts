// oh-my-pi's subagent commands (issue 23): set_subagent_subscription, get_subagents.
import type { CommandHandler } from "./types.js";

export const set_subagent_subscription: CommandHandler<"set_subagent_subscription"> = (cmd, ctx) => {
  ctx.session.subagents.setSubscription(cmd.level);
  return { level: ctx.session.subagents.subscription };
};

export const get_subagents: CommandHandler<"get_subagents"> = (_cmd, ctx) => ({ subagents: ctx.session.subagents.list() });
