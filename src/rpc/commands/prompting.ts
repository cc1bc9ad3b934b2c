// The front-door work of the prompting commands: the session starts the prompt or queues the
// message (its `prompt`, `abort_and_prompt`, `steer`, `follow_up` operations); RPC answers with an
// ack once the prompt is accepted, writes the `prompt_result` when all its work has ended, and a
// second (late) error response when the prompt pipeline fails after the ack.
import type { PromptHandle } from "../../session/index.js";
import type { CommandContext, CommandHandler } from "./types.js";

async function started(ctx: CommandContext, command: "prompt" | "abort_and_prompt", id: string | number | undefined, handle: PromptHandle): Promise<undefined> {
  await handle.accepted;
  ctx.promptResults.track(id, handle.outcome);
  handle.done.catch((err) => ctx.lateError(command, id, err));
  return undefined;
}

export const prompt: CommandHandler<"prompt"> = async (cmd, ctx) => started(ctx, "prompt", cmd.id, await ctx.session.handle(cmd));

export const abort_and_prompt: CommandHandler<"abort_and_prompt"> = async (cmd, ctx) =>
  started(ctx, "abort_and_prompt", cmd.id, await ctx.session.handle(cmd));

export const steer: CommandHandler<"steer"> = async (cmd, ctx) => {
  ctx.promptResults.track(cmd.id, (await ctx.session.handle(cmd)).outcome);
};

export const follow_up: CommandHandler<"follow_up"> = async (cmd, ctx) => {
  ctx.promptResults.track(cmd.id, (await ctx.session.handle(cmd)).outcome);
};
