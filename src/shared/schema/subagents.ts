// oh-my-pi 18.3.4's subagent payloads (the `task` tool's subagents): lifecycle, progress and the
// AgentProgress record they carry, so hosts written for oh-my-pi read pith's frames unchanged.
import Type from "typebox";
import { literals } from "./primitives.js";

const Num = Type.Number();
const Str = Type.String();
const Opt = Type.Optional;

/** Where the agent definition came from: built in, PITH_HOME/agents, or the project's agents folders. */
export const AgentSourceSchema = literals(["bundled", "user", "project"]);

export const AgentProgressSchema = Type.Object(
  {
    index: Num,
    id: Str,
    agent: Str,
    agentSource: AgentSourceSchema,
    status: literals(["pending", "running", "completed", "failed", "aborted"]),
    /** The prompt the subagent got (context + assignment). */
    task: Str,
    assignment: Opt(Str),
    description: Opt(Str),
    lastIntent: Opt(Str),
    currentTool: Opt(Str),
    currentToolArgs: Opt(Str),
    currentToolStartMs: Opt(Num),
    recentTools: Type.Array(Type.Object({ tool: Str, args: Str, endMs: Num })),
    recentOutput: Type.Array(Str),
    toolCount: Num,
    requests: Num,
    tokens: Num,
    contextTokens: Opt(Num),
    cost: Num,
    durationMs: Num,
    resolvedModel: Opt(Str),
  },
  { description: "oh-my-pi's AgentProgress: what one subagent is doing (recentTools and recentOutput newest first)." },
);

export const SubagentLifecyclePayloadSchema = Type.Object({
  id: Str,
  agent: Str,
  agentSource: AgentSourceSchema,
  description: Opt(Str),
  status: literals(["started", "completed", "failed", "aborted"]),
  sessionFile: Opt(Str),
  parentToolCallId: Opt(Str),
  index: Num,
});

export const SubagentProgressPayloadSchema = Type.Object({
  index: Num,
  agent: Str,
  agentSource: AgentSourceSchema,
  task: Str,
  parentToolCallId: Opt(Str),
  assignment: Opt(Str),
  progress: AgentProgressSchema,
  sessionFile: Opt(Str),
});

/** A subagent's own session event (any event of this stream), tagged with the subagent's id. */
export const SubagentEventPayloadSchema = Type.Object({
  id: Str,
  event: Type.Object({ type: Str }, { additionalProperties: true, description: "One of the subagent session's events (the same shapes as the parent's)." }),
});
