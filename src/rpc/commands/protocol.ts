// Framing negotiation and the event filter: how frames are written, the front door's alone. The
// framing switch itself happens in the FrameEncoder, after this response.
import type { CommandHandler } from "./types.js";

export const negotiate_protocol: CommandHandler<"negotiate_protocol"> = (cmd) => {
  if (cmd.protocolVersion !== 2) throw new Error(`Unsupported RPC protocol version: ${cmd.protocolVersion}`);
  return { protocolVersion: 2 };
};

export const set_event_filter: CommandHandler<"set_event_filter"> = (cmd, ctx) => {
  ctx.framer.flush();
  return { events: ctx.framer.filter.set(cmd.events) };
};
