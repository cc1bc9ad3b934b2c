// Shared wire data types (protocol.md §4, §5) as TypeBox schemas. They mirror src/shared/types.ts;
// protocol.test.ts proves the static types line up. Objects stay open (extra keys allowed): streaming
// partials carry transient provider keys and hosts must ignore unknown fields.
import Type from "typebox";

const Str = Type.String();
const Num = Type.Number();
const Bool = Type.Boolean();
const Opt = Type.Optional;

/** A closed set of strings: `{"enum": [...]}` in JSON Schema, a literal union in TS. */
export function literals<const T extends string[]>(values: readonly [...T]) {
  return Type.Enum([...values] as [...T]);
}

export const RecordSchema = Type.Record(Type.String(), Type.Unknown());

// ── content blocks (§4.1) ─────────────────────────────────────────────────────

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

// ── usage, models, thinking (§4.2–§4.4) ───────────────────────────────────────

const CostFields = { input: Num, output: Num, cacheRead: Num, cacheWrite: Num };
export const UsageSchema = Type.Object({
  ...CostFields,
  totalTokens: Num,
  premiumRequests: Opt(Num),
  cost: Type.Object({ ...CostFields, total: Num }),
});
export const StopReasonSchema = literals(["stop", "length", "toolUse", "error", "aborted"]);
export const EffortSchema = literals(["minimal", "low", "medium", "high", "xhigh"]);
export const ThinkingLevelSchema = literals(["off", "minimal", "low", "medium", "high", "xhigh"]);
export const ThinkingLevelInputSchema = literals(["inherit", "off", "minimal", "low", "medium", "high", "xhigh"]);

export const ModelSchema = Type.Object({
  id: Str,
  name: Str,
  api: Str,
  provider: Str,
  baseUrl: Str,
  reasoning: Bool,
  input: Type.Array(literals(["text", "image"])),
  cost: Type.Object(CostFields, { description: "USD per million tokens" }),
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

// ── messages (§5) ─────────────────────────────────────────────────────────────

const Attribution = Opt(literals(["user", "agent"]));
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

// ── results and state pieces (§4.5–§4.9) ──────────────────────────────────────

export const AgentToolResultSchema = Type.Object({
  content: Type.Array(UserContentSchema),
  details: Opt(Type.Unknown()),
  isWarning: Opt(Bool),
});
export const TodoStatusSchema = literals(["pending", "in_progress", "completed", "abandoned"]);
export const TodoItemSchema = Type.Object({
  id: Str,
  content: Str,
  status: TodoStatusSchema,
  notes: Opt(Str),
  details: Opt(Str),
});
export const TodoPhaseSchema = Type.Object({ id: Str, name: Str, tasks: Type.Array(TodoItemSchema) });
export const CompactionResultSchema = Type.Object({
  summary: Str,
  shortSummary: Opt(Str),
  firstKeptEntryId: Str,
  tokensBefore: Num,
  details: Opt(Type.Unknown()),
  preserveData: Opt(RecordSchema),
});
export const BashResultSchema = Type.Object({
  output: Str,
  exitCode: Opt(Num),
  cancelled: Bool,
  truncated: Bool,
  totalLines: Num,
  totalBytes: Num,
  outputLines: Num,
  outputBytes: Num,
  artifactId: Opt(Str),
  newCwd: Opt(Str),
  fullOutputPath: Opt(Str),
});
export const SessionStatsSchema = Type.Object({
  sessionFile: Opt(Str),
  sessionId: Str,
  userMessages: Num,
  assistantMessages: Num,
  toolCalls: Num,
  toolResults: Num,
  totalMessages: Num,
  tokens: Type.Object({ input: Num, output: Num, cacheRead: Num, cacheWrite: Num, total: Num }),
  premiumRequests: Num,
  cost: Num,
});
export const TtsrRuleSchema = Type.Object({
  name: Str,
  path: Str,
  content: Str,
  globs: Opt(Type.Array(Str)),
  alwaysApply: Opt(Bool),
  description: Opt(Str),
  condition: Opt(Type.Array(Str)),
  scope: Opt(Type.Array(Str)),
  interruptMode: Opt(literals(["never", "prose-only", "tool-only", "always"])),
  _source: Type.Object({
    provider: Str,
    providerName: Str,
    path: Str,
    level: literals(["user", "project", "native"]),
  }),
});
