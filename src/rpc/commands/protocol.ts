// Framing negotiation and the event filter: how frames are written, the front door's alone. The
// framing switch itself happens in the FrameEncoder, after this response.
import type { CommandHandler } from "./types.js";

export const negotiate_protocol: CommandHandler<"negotiate_protocol"> = (cmd, ctx) => {
  if (cmd.protocolVersion !== 2) throw new Error(`Unsupported RPC protocol version: ${cmd.protocolVersion}`);
  // A message transport carries any frame whole: there is no line limit for version 2 to work around.
  if (!ctx.protocolVersions.includes(2)) throw new Error("Protocol version 2 framing is not offered over this transport: each message is one whole frame");
  return { protocolVersion: 2 };
};

export const set_event_filter: CommandHandler<"set_event_filter"> = (cmd, ctx) => {
  ctx.framer.flush();
  return { events: ctx.framer.filter.set(cmd.events) };
};
