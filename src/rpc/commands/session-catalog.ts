// Session files for hosts: list_sessions, get_entries, get_tree (oh-my-pi's shapes),
// open_session (oh-my-pi's), delete_session.
import type { CommandHandler } from "./types.js";

export const list_sessions: CommandHandler<"list_sessions"> = (cmd, ctx) =>
  ctx.session.catalog.list({ cwd: cmd.cwd, all: cmd.all, limit: cmd.limit, cursor: cmd.cursor, query: cmd.query });

export const get_entries: CommandHandler<"get_entries"> = (cmd, ctx) => ctx.session.catalog.entries(cmd.since);

export const get_tree: CommandHandler<"get_tree"> = (_cmd, ctx) => ctx.session.catalog.tree();

export const open_session: CommandHandler<"open_session"> = (cmd, ctx) => ctx.session.catalog.open(cmd.sessionDir);

export const delete_session: CommandHandler<"delete_session"> = (cmd, ctx) => ctx.session.catalog.delete(cmd.sessionPath);
