// get_state with the front door's own switch (delta-only streaming), and that switch.
import type { CommandHandler } from "./types.js";

export const get_state: CommandHandler<"get_state"> = async (cmd, ctx) => ({
  ...(await ctx.session.handle(cmd)),
  deltaStreaming: ctx.framer.deltaOnly,
});

export const set_delta_streaming: CommandHandler<"set_delta_streaming"> = (cmd, ctx) => {
  ctx.framer.flush();
  ctx.framer.deltaOnly = cmd.enabled;
};
