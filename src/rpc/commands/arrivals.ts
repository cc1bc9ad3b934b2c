// What a queued command takes the moment it arrives, before the commands ahead of it have run.
// A `bash` command is admitted on arrival: an `abort_bash` that arrives after it (and is answered
// at once, being a control command) cancels it even while it still waits its turn, so it never
// starts and nothing waits behind it.
import type { RpcCommand, RpcCommandOf, RpcCommandType } from "../../protocol/index.js";
import type { CommandContext } from "./types.js";

/** The work to run when the command's turn comes. */
export type Deferred = () => unknown;

type Arrival<K extends RpcCommandType> = (cmd: RpcCommandOf<K>, ctx: CommandContext) => Deferred;

const ARRIVALS: { [K in RpcCommandType]?: Arrival<K> } = {
  bash: (cmd, ctx) => ctx.session.admitBash(cmd.command),
};

/** The deferred work of a command that takes something on arrival; undefined for the others. */
export function onArrival(cmd: RpcCommand, ctx: CommandContext): Deferred | undefined {
  const arrival = ARRIVALS[cmd.type] as Arrival<RpcCommandType> | undefined;
  return arrival?.(cmd as RpcCommandOf<RpcCommandType>, ctx);
}
