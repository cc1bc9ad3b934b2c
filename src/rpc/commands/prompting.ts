// prompt, steer, follow_up, abort, abort_and_prompt.
import type { CommandHandler, CommandContext } from "./types.js";
import type { ImageContent } from "../../shared/types.js";

/** Starts a prompt: resolves (ack) once pre-flight passed; later failures become a second response. */
async function startPrompt(
  ctx: CommandContext,
  command: "prompt" | "abort_and_prompt",
  id: string | number | undefined,
  message: string,
  images: ImageContent[] | undefined,
  streamingBehavior?: "steer" | "followUp",
  outputSchema?: unknown,
): Promise<undefined> {
  const output = outputSchema === undefined ? undefined : await ctx.session.compileOutputSchema(outputSchema);
  const handle = ctx.session.prompt(message, { images, streamingBehavior, promptId: id, output });
  await handle.accepted;
  ctx.promptResults.track(id, handle.outcome);
  handle.done.catch((err) => ctx.lateError(command, id, err));
  return undefined;
}

export const prompt: CommandHandler<"prompt"> = (cmd, ctx) =>
  startPrompt(ctx, "prompt", cmd.id, cmd.message, cmd.images, cmd.streamingBehavior, cmd.outputSchema);

export const steer: CommandHandler<"steer"> = (cmd, ctx) => {
  ctx.promptResults.track(cmd.id, ctx.session.steer(cmd.message, cmd.images, cmd.id));
};

export const follow_up: CommandHandler<"follow_up"> = async (cmd, ctx) => {
  const output = cmd.outputSchema === undefined ? undefined : await ctx.session.compileOutputSchema(cmd.outputSchema);
  ctx.promptResults.track(cmd.id, ctx.session.followUp(cmd.message, cmd.images, cmd.id, output));
};

export const abort: CommandHandler<"abort"> = async (_cmd, ctx) => {
  await ctx.session.abort();
};

export const abort_and_prompt: CommandHandler<"abort_and_prompt"> = async (cmd, ctx) => {
  // A bad schema is refused before the abort: nothing changes.
  if (cmd.outputSchema !== undefined) await ctx.session.compileOutputSchema(cmd.outputSchema);
  await ctx.session.abort();
  return startPrompt(ctx, "abort_and_prompt", cmd.id, cmd.message, cmd.images, undefined, cmd.outputSchema);
};
