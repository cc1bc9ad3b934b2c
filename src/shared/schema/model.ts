// Models and thinking levels.
import Type from "typebox";
import { COST_FIELDS } from "./content.js";
import { RecordSchema, literals } from "./primitives.js";

const Str = Type.String();
const Num = Type.Number();
const Opt = Type.Optional;

/** The reasoning efforts, weakest first (`EFFORTS` in ../types.ts lists them at runtime). */
export const EffortSchema = literals(["minimal", "low", "medium", "high", "xhigh"]);
export const ThinkingLevelSchema = literals(["off", "minimal", "low", "medium", "high", "xhigh"]);
/** What a host may send; `inherit` resolves to "unset". */
export const ThinkingLevelInputSchema = literals(["inherit", "off", "minimal", "low", "medium", "high", "xhigh"]);

/** The wire api of a model: the known ones complete in editors, any string is accepted. */
export type ModelApi =
  | "anthropic-messages"
  | "openai-completions"
  | "openai-responses"
  | "google-generative-ai"
  | "scripted"
  | (string & {});

export const ModelCostSchema = Type.Object(
  { ...COST_FIELDS, cacheWrite1h: Opt(Type.Number({ description: "1-hour cache writes; default 2 × input (Anthropic's rule)" })) },
  { description: "USD per million tokens" },
);

export const ModelSchema = Type.Object({
  id: Str,
  name: Str,
  api: Type.Unsafe<ModelApi>(Str),
  provider: Str,
  baseUrl: Str,
  reasoning: Type.Boolean(),
  input: Type.Array(literals(["text", "image"])),
  cost: ModelCostSchema,
  contextWindow: Num,
  maxTokens: Num,
  headers: Opt(Type.Record(Type.String(), Type.String())),
  thinking: Opt(
    Type.Object({
      minLevel: EffortSchema,
      maxLevel: EffortSchema,
      mode: literals(["effort", "budget", "google-level", "anthropic-adaptive", "anthropic-budget-effort"]),
    }),
  ),
  compat: Opt(RecordSchema),
});
