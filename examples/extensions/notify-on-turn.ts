/**
 * notify-on-turn: shows a notification after every turn, keeps a status line, and has a
 * handler that throws when the prompt contains TRIGGER, to show how a failing handler becomes
 * an `extension_error` frame while the agent carries on.
 *
 * Also registers `/turns [reset]`, a slash command run from a prompt.
 */
import type { ExtensionAPI } from "../../src/extensions/types.js";

export const TRIGGER = "please-break-the-extension";

export default function notifyOnTurn(pi: ExtensionAPI) {
  let turns = 0;

  pi.on("turn_end", (event, ctx) => {
    turns += 1;
    ctx.ui.notify(`Turn ${event.turnIndex ?? turns - 1} finished`, "info");
    ctx.ui.setStatus("turns", `${turns} turn(s)`);
  });

  pi.on("before_agent_start", (event) => {
    if (event.prompt.includes(TRIGGER)) throw new Error(`notify-on-turn refused the prompt (it contains ${TRIGGER})`);
  });

  pi.registerCommand("turns", {
    description: "Show (or reset with `reset`) the number of turns seen",
    handler: async (args, ctx) => {
      if (args.trim() === "reset") turns = 0;
      ctx.ui.notify(`${turns} turn(s) so far`, "info");
    },
  });
}
