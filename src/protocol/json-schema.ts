// Builds the published JSON Schema document (schema/rpc.schema.json) from the TypeBox definitions.
// Named shapes go to `$defs` once; every other occurrence becomes a `$ref`.
import type { TSchema } from "typebox";
import * as content from "../shared/schema/index.js";
import {
  AGENT_EVENT_SCHEMAS,
  AgentEventSchema,
  AssistantUpdateEventSchema,
  SESSION_EVENT_SCHEMAS,
  SessionEventSchema,
} from "../shared/schema/index.js";
import { COMMAND_SCHEMAS, RpcCommandSchema } from "./commands.js";
import { RpcHostToolDefinitionSchema } from "./host-tool-definitions.js";
import { ExtensionUiResponseSchema, HostToolResultSchema, HostToolUpdateSchema, InboundFrameSchema } from "./inbound.js";
import {
  ExtensionErrorSchema,
  EXTENSION_UI_REQUEST_SCHEMAS,
  ExtensionUiRequestSchema,
  HostToolCallSchema,
  HostToolCancelSchema,
  OutboundFrameSchema,
  ReadyFrameSchema,
} from "./outbound.js";
import {
  BashResultSchema,
  RpcResponseSchema,
  RpcSessionStateSchema,
  SessionStatsSchema,
  SlashCommandInfoSchema,
} from "./responses.js";
import { PROTOCOL_VERSION } from "./version.js";

type Json = unknown;

function namedSchemas(): Array<[string, TSchema]> {
  const commands = Object.entries(COMMAND_SCHEMAS).map(
    ([type, schema]) => [`command_${type}`, schema] as [string, TSchema],
  );
  const events = [...AGENT_EVENT_SCHEMAS, ...SESSION_EVENT_SCHEMAS].map(
    (schema): [string, TSchema] => [`event_${schema.properties.type.const}`, schema],
  );
  const uiRequests = EXTENSION_UI_REQUEST_SCHEMAS.map(
    (schema): [string, TSchema] => [`ui_request_${schema.properties.method.const}`, schema],
  );
  return [
    ["InboundFrame", InboundFrameSchema],
    ["OutboundFrame", OutboundFrameSchema],
    ["RpcCommand", RpcCommandSchema],
    ...commands,
    ["ExtensionUiResponse", ExtensionUiResponseSchema],
    ["HostToolUpdate", HostToolUpdateSchema],
    ["HostToolResult", HostToolResultSchema],
    ["ReadyFrame", ReadyFrameSchema],
    ["RpcResponse", RpcResponseSchema],
    ["AgentEvent", AgentEventSchema],
    ["SessionEvent", SessionEventSchema],
    ...events,
    ["AssistantUpdateEvent", AssistantUpdateEventSchema],
    ["ExtensionUiRequest", ExtensionUiRequestSchema],
    ...uiRequests,
    ["HostToolCall", HostToolCallSchema],
    ["HostToolCancel", HostToolCancelSchema],
    ["ExtensionError", ExtensionErrorSchema],
    ["RpcSessionState", RpcSessionStateSchema],
    ["RpcHostToolDefinition", RpcHostToolDefinitionSchema],
    ["SlashCommandInfo", SlashCommandInfoSchema],
    ["AgentMessage", content.AgentMessageSchema],
    ["UserMessage", content.UserMessageSchema],
    ["DeveloperMessage", content.DeveloperMessageSchema],
    ["AssistantMessage", content.AssistantMessageSchema],
    ["ToolResultMessage", content.ToolResultMessageSchema],
    ["BashExecutionMessage", content.BashExecutionMessageSchema],
    ["CustomMessage", content.CustomMessageSchema],
    ["BranchSummaryMessage", content.BranchSummaryMessageSchema],
    ["CompactionSummaryMessage", content.CompactionSummaryMessageSchema],
    ["TextContent", content.TextContentSchema],
    ["ThinkingContent", content.ThinkingContentSchema],
    ["RedactedThinkingContent", content.RedactedThinkingContentSchema],
    ["ImageContent", content.ImageContentSchema],
    ["ToolCall", content.ToolCallSchema],
    ["Usage", content.UsageSchema],
    ["Model", content.ModelSchema],
    ["AgentToolResult", content.AgentToolResultSchema],
    ["TodoPhase", content.TodoPhaseSchema],
    ["TodoItem", content.TodoItemSchema],
    ["CompactionResult", content.CompactionResultSchema],
    ["BashResult", BashResultSchema],
    ["SessionStats", SessionStatsSchema],
    ["TtsrRule", content.TtsrRuleSchema],
  ];
}

/** Replaces any subtree equal to a named schema (other than `self`) with a `$ref`. */
function refify(node: Json, byText: Map<string, string>, self: string | undefined): Json {
  if (Array.isArray(node)) return node.map((item) => refify(item, byText, undefined));
  if (typeof node !== "object" || node === null) return node;
  const text = JSON.stringify(node);
  const name = byText.get(text);
  if (name !== undefined && name !== self) return { $ref: `#/$defs/${name}` };
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(node)) out[key] = refify(value, byText, undefined);
  return out;
}

/** The whole document, deterministic: same definitions → same bytes. */
export function buildRpcJsonSchema(): Record<string, Json> {
  const named = namedSchemas();
  const byText = new Map<string, string>();
  for (const [name, schema] of named) {
    const text = JSON.stringify(schema);
    if (!byText.has(text)) byText.set(text, name);
  }
  const defs: Record<string, Json> = {};
  for (const [name, schema] of named) defs[name] = refify(JSON.parse(JSON.stringify(schema)), byText, name);
  return {
    $schema: "https://json-schema.org/draft/2020-12/schema",
    $id: "urn:pith:rpc-protocol",
    title: "pith RPC protocol",
    description: `Newline-delimited JSON over stdio (pith --mode rpc). Protocol version ${PROTOCOL_VERSION}.`,
    $defs: defs,
  };
}

/** The file text as committed: two-space indentation and a final newline. */
export function renderRpcJsonSchema(): string {
  return JSON.stringify(buildRpcJsonSchema(), null, 2) + "\n";
}
