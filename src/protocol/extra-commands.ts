// Commands added for hosts written for oh-my-pi 18 and pi 0.87: protocol negotiation,
// the event filter, message paging, command and thinking-level discovery, pi's queue and tree
// reads. Shapes match the peers'; each schema says what answers it.
import Type from "typebox";
import { AgentMessageSchema, ThinkingLevelSchema, literals } from "../shared/schema/index.js";
import { command } from "./command-schema.js";

const Str = Type.String();
const Opt = Type.Optional;

export const EXTRA_COMMAND_SCHEMAS = {
  /** oh-my-pi: answered with `{protocolVersion: 2}` (written in version 1); later frames use version 2 framing. */
  negotiate_protocol: command(
    "negotiate_protocol",
    { protocolVersion: Type.Number({ description: "Only 2 is accepted; anything else fails with `Unsupported RPC protocol version: <n>`." }) },
    "Switch to protocol version 2: no line longer than maxFrameBytes (rpc_chunk for larger frames).",
  ),
  /** oh-my-pi: answered with `{events}`, the active selection (`null` = everything). */
  set_event_filter: command(
    "set_event_filter",
    { events: Type.Union([Type.Array(Str), Type.Null()]) },
    "Write only the listed session event types; responses, prompt_result, dialogs and host tool frames always pass.",
  ),
  /** oh-my-pi: answered with `{messages, nextCursor?, totalMessages}`; a page stays under 768 KiB. */
  get_messages_page: command(
    "get_messages_page",
    { cursor: Opt(Str), limit: Opt(Type.Number({ description: "1..256, default 100" })) },
    "One page of the in-memory context; pass nextCursor back for the next page.",
  ),
  /** oh-my-pi: answered with `{commands}` (slash commands a prompt may start with). */
  get_available_commands: command("get_available_commands", {}, "List slash commands (oh-my-pi shape)."),
  /** pi: answered with `{levels}`, the levels `set_thinking_level` accepts for the current model. */
  get_available_thinking_levels: command("get_available_thinking_levels", {}, "Thinking levels of the current model."),
  /** pi: answered with `{steering, followUp}`, the texts of the dropped queued messages. */
  clear_queue: command("clear_queue", {}, "Drop every queued steering and follow-up message."),
  // get_entries and get_tree (pi and oh-my-pi share their shapes) live in session-commands.ts.
} as const;

/** oh-my-pi's slash command description. */
export const AvailableSlashCommandSchema = Type.Object({
  name: Str,
  aliases: Opt(Type.Array(Str)),
  description: Opt(Str),
  input: Opt(Type.Object({ hint: Opt(Str) })),
  source: literals(["builtin", "skill", "extension", "custom", "mcp_prompt", "file"]),
});


export const EXTRA_RESPONSE_DATA_SCHEMAS = {
  negotiate_protocol: Type.Object({ protocolVersion: Type.Literal(2) }),
  set_event_filter: Type.Object({ events: Type.Union([Type.Array(Str), Type.Null()]) }),
  get_messages_page: Type.Object({
    messages: Type.Array(AgentMessageSchema),
    nextCursor: Opt(Str),
    totalMessages: Type.Number(),
  }),
  get_available_commands: Type.Object({ commands: Type.Array(AvailableSlashCommandSchema) }),
  get_available_thinking_levels: Type.Object({ levels: Type.Array(ThinkingLevelSchema) }),
  clear_queue: Type.Object({ steering: Type.Array(Str), followUp: Type.Array(Str) }),
} as const;
