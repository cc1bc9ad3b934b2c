// Many sessions in one process: create_session, close_session, get_open_sessions.
import { PithError } from "../../shared/errors.js";
import type { CommandContext, CommandHandler, SessionsPort } from "./types.js";

function sessionsOf(ctx: CommandContext): SessionsPort {
  if (!ctx.sessions) throw new PithError("unavailable", "This front door serves one session only");
  return ctx.sessions;
}

export const create_session: CommandHandler<"create_session"> = (cmd, ctx) =>
  sessionsOf(ctx).create({ cwd: cmd.cwd, sessionPath: cmd.sessionPath, provider: cmd.provider, modelId: cmd.modelId, noSession: cmd.noSession }, ctx.session);

export const close_session: CommandHandler<"close_session"> = async (cmd, ctx) => {
  if (cmd.sessionId === undefined) throw new PithError("invalid_request", 'Invalid "sessionId": close_session needs the session to close');
  await sessionsOf(ctx).close(cmd.sessionId);
};

export const get_open_sessions: CommandHandler<"get_open_sessions"> = (_cmd, ctx) => ({ sessions: sessionsOf(ctx).list() });
