// File checkpoints: list, diff and restore what the agent changed, prompt by prompt.
import type { CommandHandler } from "./types.js";

export const get_checkpoints: CommandHandler<"get_checkpoints"> = async (_cmd, ctx) => ({ checkpoints: await ctx.session.checkpoints.list() });

export const diff_checkpoint: CommandHandler<"diff_checkpoint"> = (cmd, ctx) => ctx.session.checkpoints.diff(cmd.checkpointId, cmd.toCheckpointId);

export const restore_checkpoint: CommandHandler<"restore_checkpoint"> = (cmd, ctx) =>
  ctx.session.checkpoints.restore(cmd.checkpointId, cmd.mode ?? "files", cmd.paths);
