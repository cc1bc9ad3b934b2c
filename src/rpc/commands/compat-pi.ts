// Commands pi 0.87.1's RpcClient and pi-acp send that the seed protocol lacked, with pi's shapes
// (dist/modes/rpc/rpc-types.d.ts): thinking levels and clear_queue.
import type { CommandHandler } from "./types.js";

export const get_available_thinking_levels: CommandHandler<"get_available_thinking_levels"> = (_cmd, ctx) => ({
  levels: ctx.session.models.availableThinkingLevels(),
});

export const clear_queue: CommandHandler<"clear_queue"> = (_cmd, ctx) => ctx.session.clearQueue();

// get_entries and get_tree (the same shapes in pi and oh-my-pi) are session-catalog.ts's.
