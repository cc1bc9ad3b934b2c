// oh-my-pi's subagent commands: set_subagent_subscription, get_subagents, get_subagent_messages.
import type { CommandHandler } from "./types.js";

export const set_subagent_subscription: CommandHandler<"set_subagent_subscription"> = (cmd, ctx) => {
  ctx.session.subagents.setSubscription(cmd.level);
  return { level: ctx.session.subagents.subscription };
};

export const get_subagents: CommandHandler<"get_subagents"> = (_cmd, ctx) => ({ subagents: ctx.session.subagents.list() });

export const get_subagent_messages: CommandHandler<"get_subagent_messages"> = (cmd, ctx) => {
  const sel: { subagentId?: string; sessionFile?: string } = {};
  if (cmd.subagentId !== undefined) sel.subagentId = cmd.subagentId;
  if (cmd.sessionFile !== undefined) sel.sessionFile = cmd.sessionFile;
  return ctx.session.subagentTranscript(sel, cmd.fromByte ?? 0);
};
