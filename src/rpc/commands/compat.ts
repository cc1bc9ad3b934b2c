// Older dialects hosts still send: answered like their current counterparts.
import { switchSession } from "../../session/session-switching.js";
import type { CommandHandler } from "./types.js";

/** `resume_session {sessionFile}` (older pi hosts) is `switch_session {sessionPath}`. */
export const resume_session: CommandHandler<"resume_session"> = (cmd, ctx) => switchSession(ctx.session, cmd.sessionFile);
