// Content blocks and usage: the pieces every message is made of.
// Objects stay open (extra keys allowed): streaming partials carry transient provider keys and
// hosts must ignore unknown fields.
import Type from "typebox";
import { RecordSchema, literals } from "./primitives.js";

const Str = Type.String();
const Num = Type.Number();
const Opt = Type.Optional;

export const TextContentSchema = Type.Object({ type: Type.Literal("text"), text: Str, textSignature: Opt(Str) });
export const ThinkingContentSchema = Type.Object({
  type: Type.Literal("thinking"),
  thinking: Str,
  thinkingSignature: Opt(Str),
});
export const RedactedThinkingContentSchema = Type.Object({ type: Type.Literal("redactedThinking"), data: Str });
export const ImageContentSchema = Type.Object({
  type: Type.Literal("image"),
  data: Type.String({ description: "base64, no data: prefix" }),
  mimeType: Str,
});
export const ToolCallSchema = Type.Object({
  type: Type.Literal("toolCall"),
  id: Str,
  name: Str,
  arguments: RecordSchema,
  thoughtSignature: Opt(Str),
  intent: Opt(Str),
});
export const UserContentSchema = Type.Union([TextContentSchema, ImageContentSchema]);
export const AssistantContentSchema = Type.Union([
  TextContentSchema,
  ThinkingContentSchema,
  RedactedThinkingContentSchema,
  ToolCallSchema,
]);

/** The four token counters; `Cost` adds `total`, `ModelCost` gives them in USD per million. */
export const COST_FIELDS = { input: Num, output: Num, cacheRead: Num, cacheWrite: Num };
export const CostSchema = Type.Object({ ...COST_FIELDS, total: Num });
export const UsageSchema = Type.Object({
  ...COST_FIELDS,
  /** The part of cacheWrite written with a 1-hour ttl (Anthropic prices it apart). */
  cacheWrite1h: Opt(Num),
  totalTokens: Num,
  premiumRequests: Opt(Num),
  cost: CostSchema,
});
export const StopReasonSchema = literals(["stop", "length", "toolUse", "error", "aborted"]);
