// oh-my-pi's subagent commands (issue 23): set_subagent_subscription and get_subagents. Spread
// into COMMAND_SCHEMAS and RESPONSE_DATA_SCHEMAS.
import Type from "typebox";
import { command } from "./command-schema.js";

const Str = Type.String();
const Num = Type.Number();
const Opt = Type.Optional;
const Level = Type.Union([Type.Literal("off"), Type.Literal("progress"), Type.Literal("events")]);

export const SubagentSnapshotSchema = Type.Object({
  id: Str,
  index: Num,
  agent: Str,
  agentSource: Str,
  description: Opt(Str),
  status: Type.Union([Type.Literal("running"), Type.Literal("completed"), Type.Literal("failed"), Type.Literal("aborted")]),
  assignment: Opt(Str),
  sessionFile: Opt(Str),
  lastUpdate: Num,
  parentToolCallId: Opt(Str),
});

export const SUBAGENT_COMMAND_SCHEMAS = {
  set_subagent_subscription: command(
    "set_subagent_subscription",
    { level: Level },
    "oh-my-pi: which subagent frames to write: off (default), progress or events (both write subagent_lifecycle).",
  ),
  get_subagents: command("get_subagents", {}, "oh-my-pi: the task tool's subagents running now."),
} as const;

export const SUBAGENT_RESPONSE_SCHEMAS = {
  set_subagent_subscription: Type.Object({ level: Level }),
  get_subagents: Type.Object({ subagents: Type.Array(SubagentSnapshotSchema) }),
} as const;
