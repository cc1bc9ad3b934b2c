// Session files and history (pi's fork/clone dialect).
import type { CommandHandler } from "./types.js";

export const new_session: CommandHandler<"new_session"> = (cmd, ctx) => ctx.session.history.newSession(cmd.parentSession);
export const switch_session: CommandHandler<"switch_session"> = (cmd, ctx) => ctx.session.history.switchTo(cmd.sessionPath);
export const branch: CommandHandler<"branch"> = (cmd, ctx) => ctx.session.history.branch(cmd.entryId);
export const fork: CommandHandler<"fork"> = (cmd, ctx) => ctx.session.history.branch(cmd.entryId);
export const clone: CommandHandler<"clone"> = (_cmd, ctx) => ctx.session.history.clone();

export const get_branch_messages: CommandHandler<"get_branch_messages"> = (_cmd, ctx) => ({
  messages: ctx.session.history.branchMessages(),
});
export const get_fork_messages: CommandHandler<"get_fork_messages"> = (_cmd, ctx) => ({
  messages: ctx.session.history.branchMessages(),
});

export const get_messages: CommandHandler<"get_messages"> = (_cmd, ctx) => ({ messages: ctx.session.history.messages });

export const get_last_assistant_text: CommandHandler<"get_last_assistant_text"> = (_cmd, ctx) => {
  const text = ctx.session.history.lastAssistantText();
  return text === undefined ? {} : { text };
};

export const set_session_name: CommandHandler<"set_session_name"> = (cmd, ctx) => {
  ctx.session.history.setName(cmd.name);
};

export const get_session_stats: CommandHandler<"get_session_stats"> = (_cmd, ctx) => ctx.session.history.stats();

export const export_html: CommandHandler<"export_html"> = async (cmd, ctx) => ({ path: await ctx.session.history.exportHtml(cmd.outputPath) });
