// Inbound frames that are not commands, and the inbound union.
import Type, { type Static } from "typebox";
import { AgentToolResultSchema } from "../shared/schema/index.js";
import { RpcCommandSchema, type RpcCommand } from "./commands.js";

/** Answers an `extension_ui_request` dialog; never answered itself. */
export const ExtensionUiResponseSchema = Type.Object(
  {
    type: Type.Literal("extension_ui_response"),
    id: Type.String(),
    value: Type.Optional(Type.String()),
    confirmed: Type.Optional(Type.Boolean()),
    cancelled: Type.Optional(Type.Boolean()),
    timedOut: Type.Optional(Type.Boolean()),
  },
  { description: "Answer to a dialog: value (select/input/editor), confirmed (confirm) or cancelled." },
);

/** Progress for a pending `host_tool_call`; never answered. */
export const HostToolUpdateSchema = Type.Object(
  { type: Type.Literal("host_tool_update"), id: Type.String(), partialResult: AgentToolResultSchema },
  { description: "Partial result of a host tool call, forwarded as tool_execution_update." },
);

/** Completes a pending `host_tool_call` exactly once; never answered. */
export const HostToolResultSchema = Type.Object(
  {
    type: Type.Literal("host_tool_result"),
    id: Type.String(),
    result: AgentToolResultSchema,
    isError: Type.Optional(Type.Boolean()),
  },
  { description: "Final result of a host tool call." },
);

export type ExtensionUiResponse = Static<typeof ExtensionUiResponseSchema>;
export type HostToolUpdate = Static<typeof HostToolUpdateSchema>;
export type HostToolResult = Static<typeof HostToolResultSchema>;

export const InboundFrameSchema = Type.Union(
  [ExtensionUiResponseSchema, HostToolResultSchema, HostToolUpdateSchema, RpcCommandSchema],
  { description: "Anything a host may write to stdin." },
);
export type InboundFrame = ExtensionUiResponse | HostToolResult | HostToolUpdate | RpcCommand;
