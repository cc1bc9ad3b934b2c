// Older dialects hosts still send: answered like their current counterparts.
import type { CommandHandler } from "./types.js";

/** `resume_session {sessionFile}` (older pi hosts) is `switch_session {sessionPath}`. */
export const resume_session: CommandHandler<"resume_session"> = (cmd, ctx) => ctx.session.history.switchTo(cmd.sessionFile);
