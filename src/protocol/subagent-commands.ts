// oh-my-pi's subagent commands: set_subagent_subscription, get_subagents and
// get_subagent_messages. Spread into COMMAND_SCHEMAS and RESPONSE_DATA_SCHEMAS.
import Type from "typebox";
import { AgentMessageSchema, AgentProgressSchema, AgentSourceSchema, RecordSchema } from "../shared/schema/index.js";
import { command } from "./command-schema.js";

const Str = Type.String();
const Num = Type.Number();
const Opt = Type.Optional;
const Level = Type.Union([Type.Literal("off"), Type.Literal("progress"), Type.Literal("events")]);

export const SubagentSnapshotSchema = Type.Object({
  id: Str,
  index: Num,
  agent: Str,
  agentSource: AgentSourceSchema,
  description: Opt(Str),
  status: AgentProgressSchema.properties.status,
  task: Opt(Str),
  assignment: Opt(Str),
  sessionFile: Opt(Str),
  lastUpdate: Num,
  progress: Opt(AgentProgressSchema),
  parentToolCallId: Opt(Str),
});

export const SubagentMessagesResultSchema = Type.Object({
  sessionFile: Str,
  fromByte: Num,
  nextByte: Type.Number({ description: "Pass as fromByte to read on; only complete lines are returned." }),
  reset: Type.Boolean({ description: "fromByte was past the end of the file: read from 0 instead." }),
  entries: Type.Array(RecordSchema, { description: "Every session file line from fromByte on (the header too from 0)." }),
  messages: Type.Array(AgentMessageSchema, { description: "The messages of the `message` entries." }),
});

export const SUBAGENT_COMMAND_SCHEMAS = {
  set_subagent_subscription: command(
    "set_subagent_subscription",
    { level: Level },
    "oh-my-pi: which subagent frames to write: off (default); progress (subagent_lifecycle, subagent_progress); events (also subagent_event).",
  ),
  get_subagents: command("get_subagents", {}, "oh-my-pi: the task tool's subagents running now."),
  get_subagent_messages: command(
    "get_subagent_messages",
    { subagentId: Opt(Str), sessionFile: Opt(Str), fromByte: Opt(Num) },
    "oh-my-pi: a subagent's session file (by id, or one of its session files) read from byte fromByte (default 0).",
  ),
} as const;

export const SUBAGENT_RESPONSE_SCHEMAS = {
  set_subagent_subscription: Type.Object({ level: Level }),
  get_subagents: Type.Object({ subagents: Type.Array(SubagentSnapshotSchema) }),
  get_subagent_messages: SubagentMessagesResultSchema,
} as const;
