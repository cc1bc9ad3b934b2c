// oh-my-pi 18's protocol commands: framing negotiation, the event filter, message paging and the
// slash command list. The framing switch itself happens in the FrameEncoder, after this response.
import { availableCommands } from "../available-commands.js";
import { PAGE_BUSY_ERROR, PageError, pageMessages } from "../messages-page.js";
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

export const get_messages_page: CommandHandler<"get_messages_page"> = (cmd, ctx) => {
  const { session } = ctx;
  const state = session.getState();
  if (state.isStreaming || state.isCompacting) throw new PageError(PAGE_BUSY_ERROR, "session_busy");
  const messages = session.history.messages;
  const snapshot = { sessionId: session.history.sessionId, leafId: session.history.leafId, messageCount: messages.length };
  return pageMessages(messages, snapshot, { cursor: cmd.cursor, limit: cmd.limit });
};

export const get_available_commands: CommandHandler<"get_available_commands"> = (_cmd, ctx) => ({
  commands: availableCommands(ctx.session.extensions.commands()),
});
