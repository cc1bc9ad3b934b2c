// get_state and the per-session switches.
import type { CommandHandler } from "./types.js";

export const get_state: CommandHandler<"get_state"> = async (_cmd, ctx) => ({
  ...ctx.session.getState(),
  deltaStreaming: ctx.framer.deltaOnly,
  fileCheckpoints: await ctx.session.checkpoints.state(),
});

export const set_steering_mode: CommandHandler<"set_steering_mode"> = (cmd, ctx) => {
  ctx.session.modes.setSteeringMode(cmd.mode);
};
export const set_follow_up_mode: CommandHandler<"set_follow_up_mode"> = (cmd, ctx) => {
  ctx.session.modes.setFollowUpMode(cmd.mode);
};
export const set_interrupt_mode: CommandHandler<"set_interrupt_mode"> = (cmd, ctx) => {
  ctx.session.modes.setInterruptMode(cmd.mode);
};
export const set_auto_compaction: CommandHandler<"set_auto_compaction"> = (cmd, ctx) => {
  ctx.session.modes.setAutoCompaction(cmd.enabled);
};
export const set_auto_retry: CommandHandler<"set_auto_retry"> = (cmd, ctx) => {
  ctx.session.modes.setAutoRetry(cmd.enabled);
};
export const abort_retry: CommandHandler<"abort_retry"> = (_cmd, ctx) => {
  ctx.session.abortRetry();
};
export const set_todos: CommandHandler<"set_todos"> = (cmd, ctx) => ({ todoPhases: ctx.session.tools.setTodos(cmd.phases) });
export const set_delta_streaming: CommandHandler<"set_delta_streaming"> = (cmd, ctx) => {
  ctx.framer.flush();
  ctx.framer.deltaOnly = cmd.enabled;
};
