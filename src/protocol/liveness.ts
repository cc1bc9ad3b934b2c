// Where a prompt stands and whether the process is alive: the `prompt_result` frame
// (oh-my-pi's shape), the `heartbeat` frame and its `set_heartbeat` switch, and the
// `get_integrations` health check. Commands and responses are spread into the command and
// response tables; frames into the outbound union.
import { SessionIdFieldSchema } from "./command-schema.js";
import Type, { type Static } from "typebox";
import { literals } from "../shared/schema/index.js";

const Str = Type.String();
const Num = Type.Number();
const Opt = Type.Optional;
/** Same as RpcIdSchema (commands.ts imports this file, so it is not imported from there). */
const Id = Type.Union([Type.String(), Type.Number()]);

export const LIVENESS_COMMAND_SCHEMAS = {
  /** Answered with `{intervalMs}`; 0 turns the heartbeat off. */
  set_heartbeat: Type.Object(
    {
      id: Opt(Id),
      type: Type.Literal("set_heartbeat"),
      sessionId: Opt(SessionIdFieldSchema),
      intervalMs: Type.Number({ description: "0 = off (the default); otherwise 100 … 3600000 ms" }),
    },
    { description: "pith: write a heartbeat frame every intervalMs (0 = off)." },
  ),
  /** Answered with `{version, model, services}` after the checks (bounded by a timeout). */
  get_integrations: Type.Object(
    { id: Opt(Id), type: Type.Literal("get_integrations"), sessionId: Opt(SessionIdFieldSchema) },
    { description: "Health check: the model provider's list-models endpoint and extension status checks." },
  ),
} as const;

export const IntegrationsSchema = Type.Object({
  version: Str,
  model: Type.Object({
    state: literals(["no_provider", "connected", "auth_error", "unavailable"]),
    provider: Opt(Str),
    latencyMs: Opt(Num),
    hint: Opt(Str),
  }),
  services: Type.Array(
    Type.Object({
      name: Str,
      state: literals(["connected", "unauthenticated", "unavailable"]),
      hint: Opt(Str),
      _isPlugin: Opt(Type.Literal(true)),
      _group: Opt(Str),
    }),
  ),
});
export type Integrations = Static<typeof IntegrationsSchema>;

export const LIVENESS_RESPONSE_SCHEMAS = {
  set_heartbeat: Type.Object({ intervalMs: Num }),
  get_integrations: IntegrationsSchema,
} as const;

export const PromptErrorSchema = Type.Object({
  message: Str,
  provider: Opt(Str),
  model: Opt(Str),
  httpStatus: Opt(Num),
  retryable: Type.Boolean({ description: "transient: resending later may succeed (pith's retries are spent)" }),
});

/** Exactly one per accepted prompt, abort_and_prompt, steer and follow_up. */
export const PromptResultFrameSchema = Type.Object(
  {
    type: Type.Literal("prompt_result"),
    id: Opt(Id),
    agentInvoked: Type.Boolean({ description: "false for an extension command or a pre-flight failure after the ack" }),
    status: literals(["completed", "aborted", "error"]),
    error: Opt(PromptErrorSchema),
    output: Opt(Type.Unknown({ description: "pith: the validated structured result of a prompt sent with outputSchema" })),
    sessionSettled: Type.Boolean({ description: "nothing more will happen: session_settled follows when false" }),
  },
  {
    description:
      "oh-my-pi: how an accepted prompting command ended, after all the work it caused (retries, compaction, continuations). id is the command's id.",
  },
);
export type PromptResultFrame = Static<typeof PromptResultFrameSchema>;

export const HEARTBEAT_PHASES = ["idle", "streaming", "tool", "retry_wait", "compacting", "waiting_host"] as const;

/** Written every set_heartbeat interval while it is on. */
export const HeartbeatFrameSchema = Type.Object(
  {
    type: Type.Literal("heartbeat"),
    phase: literals([...HEARTBEAT_PHASES]),
    sinceActivityMs: Type.Number({ description: "ms since the last provider byte or tool output" }),
    promptId: Opt(Id),
  },
  { description: "pith: the process is alive; what it is doing and how long since anything happened." },
);
export type HeartbeatFrame = Static<typeof HeartbeatFrameSchema>;

export const LIVENESS_FRAME_SCHEMAS = [PromptResultFrameSchema, HeartbeatFrameSchema] as const;
