// The messages of a session's context, tagged by `role`.
import Type from "typebox";
import { AssistantContentSchema, StopReasonSchema, UsageSchema, UserContentSchema } from "./content.js";
import { RecordSchema, literals } from "./primitives.js";

const Str = Type.String();
const Num = Type.Number();
const Bool = Type.Boolean();
const Opt = Type.Optional;

export const AttributionSchema = literals(["user", "agent"]);
const Attribution = Opt(AttributionSchema);
const UserContentOrString = Type.Union([Str, Type.Array(UserContentSchema)]);

export const UserMessageSchema = Type.Object({
  role: Type.Literal("user"),
  content: UserContentOrString,
  synthetic: Opt(Bool),
  attribution: Attribution,
  providerPayload: Opt(RecordSchema),
  timestamp: Num,
});
export const DeveloperMessageSchema = Type.Object({
  role: Type.Literal("developer"),
  content: UserContentOrString,
  attribution: Attribution,
  providerPayload: Opt(RecordSchema),
  timestamp: Num,
});
export const AssistantMessageSchema = Type.Object({
  role: Type.Literal("assistant"),
  content: Type.Array(AssistantContentSchema),
  api: Str,
  provider: Str,
  model: Str,
  responseId: Opt(Str),
  usage: UsageSchema,
  stopReason: StopReasonSchema,
  errorMessage: Opt(Str),
  /** Opaque provider state needed to replay this message (e.g. reasoning item ids). */
  providerPayload: Opt(RecordSchema),
  timestamp: Num,
  duration: Opt(Num),
  ttft: Opt(Num),
});
export const ToolResultMessageSchema = Type.Object({
  role: Type.Literal("toolResult"),
  toolCallId: Str,
  toolName: Str,
  content: Type.Array(UserContentSchema),
  details: Opt(Type.Unknown()),
  isError: Bool,
  isWarning: Opt(Bool),
  attribution: Attribution,
  prunedAt: Opt(Num),
  timestamp: Num,
});
export const TruncationMetaSchema = Type.Object({
  direction: literals(["head", "tail"]),
  truncatedBy: literals(["lines", "bytes"]),
  totalLines: Num,
  totalBytes: Num,
  outputLines: Num,
  outputBytes: Num,
  maxBytes: Opt(Num),
  /** pith extra: where the full output was saved */
  fullOutputPath: Opt(Str),
});
export const BashExecutionMessageSchema = Type.Object({
  role: Type.Literal("bashExecution"),
  command: Str,
  output: Str,
  exitCode: Opt(Num),
  cancelled: Bool,
  truncated: Bool,
  meta: Opt(Type.Object({ truncation: Opt(TruncationMetaSchema) })),
  timestamp: Num,
  excludeFromContext: Opt(Bool),
});
export const CustomMessageSchema = Type.Object({
  role: Type.Literal("custom"),
  customType: Str,
  content: UserContentOrString,
  display: Bool,
  details: Opt(Type.Unknown()),
  attribution: Attribution,
  timestamp: Num,
});
export const BranchSummaryMessageSchema = Type.Object({
  role: Type.Literal("branchSummary"),
  summary: Str,
  fromId: Str,
  timestamp: Num,
});
export const CompactionSummaryMessageSchema = Type.Object({
  role: Type.Literal("compactionSummary"),
  summary: Str,
  shortSummary: Opt(Str),
  tokensBefore: Num,
  timestamp: Num,
});
export const AgentMessageSchema = Type.Union([
  UserMessageSchema,
  DeveloperMessageSchema,
  AssistantMessageSchema,
  ToolResultMessageSchema,
  BashExecutionMessageSchema,
  CustomMessageSchema,
  BranchSummaryMessageSchema,
  CompactionSummaryMessageSchema,
]);
