// Models and thinking levels.
import type { CommandHandler } from "./types.js";

export const set_model: CommandHandler<"set_model"> = (cmd, ctx) => ctx.session.models.set(cmd.provider, cmd.modelId);
export const cycle_model: CommandHandler<"cycle_model"> = (_cmd, ctx) => ctx.session.models.cycle();
export const get_available_models: CommandHandler<"get_available_models"> = async (_cmd, ctx) => ({
  models: await ctx.session.models.discovered(),
});
export const set_thinking_level: CommandHandler<"set_thinking_level"> = (cmd, ctx) => {
  ctx.session.models.setThinkingLevel(cmd.level);
};
export const cycle_thinking_level: CommandHandler<"cycle_thinking_level"> = (_cmd, ctx) => ctx.session.models.cycleThinkingLevel();
