// Models and thinking levels (spec/protocol.md §3.12–3.16).
import { discoveredModels, cycleModel, cycleThinking, setModel, setThinkingLevel } from "../../session/model-control.js";
import type { CommandHandler } from "./types.js";

export const set_model: CommandHandler<"set_model"> = (cmd, ctx) => setModel(ctx.session, cmd.provider, cmd.modelId);
export const cycle_model: CommandHandler<"cycle_model"> = (_cmd, ctx) => cycleModel(ctx.session);
export const get_available_models: CommandHandler<"get_available_models"> = async (_cmd, ctx) => ({
  models: await discoveredModels(ctx.session),
});
export const set_thinking_level: CommandHandler<"set_thinking_level"> = (cmd, ctx) => {
  setThinkingLevel(ctx.session, cmd.level);
};
export const cycle_thinking_level: CommandHandler<"cycle_thinking_level"> = (_cmd, ctx) => cycleThinking(ctx.session);
