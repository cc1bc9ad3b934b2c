// Every frame pith writes to stdout: ready, responses, events, UI and host-tool
// requests, extension errors.
import Type, { type Static, type TSchema } from "typebox";
import { AGENT_EVENT_SCHEMAS, PermissionPayloadSchema, RecordSchema, SESSION_EVENT_SCHEMAS, literals } from "../shared/schema/index.js";
import { LIVENESS_FRAME_SCHEMAS } from "./liveness.js";
import { RpcResponseSchema } from "./responses.js";
import { FRAMING_FRAME_SCHEMAS, READY_PROTOCOL_FIELDS } from "./framing-frames.js";

const Str = Type.String();
const Opt = Type.Optional;

/** The first stdout line; nothing answers it. */
export const ReadyFrameSchema = Type.Object(
  { type: Type.Literal("ready"), version: Str, ...READY_PROTOCOL_FIELDS },
  { description: "Startup complete: the first stdout frame." },
);

function uiRequest<M extends string, P extends Record<string, TSchema>>(method: M, props: P, description: string) {
  return Type.Object(
    { type: Type.Literal("extension_ui_request"), id: Str, method: Type.Literal(method), ...props },
    { description },
  );
}
const Timeout = Opt(Type.Number({ description: "ms; the agent enforces it" }));

export const EXTENSION_UI_REQUEST_SCHEMAS = [
  uiRequest(
    "select",
    // `permission`: pith's approval dialogs only (options Allow once / Allow always / Deny).
    { title: Str, options: Type.Array(Str), timeout: Timeout, permission: Opt(PermissionPayloadSchema) },
    "Answered by extension_ui_response {value} or {cancelled}.",
  ),
  uiRequest("confirm", { title: Str, message: Str, timeout: Timeout }, "Answered by extension_ui_response {confirmed} or {cancelled}."),
  uiRequest("input", { title: Str, placeholder: Opt(Str), timeout: Timeout }, "Answered by extension_ui_response {value} or {cancelled}."),
  uiRequest("editor", { title: Str, prefill: Opt(Str), promptStyle: Opt(Type.Boolean()) }, "Answered by extension_ui_response {value} or {cancelled}."),
  uiRequest("cancel", { targetId: Str }, "The dialog targetId timed out or was aborted: close it. No answer."),
  uiRequest("notify", { message: Str, notifyType: Opt(literals(["info", "warning", "error"])) }, "Fire and forget."),
  uiRequest("setStatus", { statusKey: Str, statusText: Opt(Str) }, "Fire and forget; absent statusText clears the key."),
  uiRequest(
    "setWidget",
    { widgetKey: Str, widgetLines: Opt(Type.Array(Str)), widgetPlacement: Opt(literals(["aboveEditor", "belowEditor"])) },
    "Fire and forget; absent widgetLines clears the widget.",
  ),
  uiRequest("setTitle", { title: Str }, "Fire and forget; only sent when PITH_RPC_EMIT_TITLE/PI_RPC_EMIT_TITLE is set."),
  uiRequest("set_editor_text", { text: Str }, "Fire and forget."),
] as const;
export const ExtensionUiRequestSchema = Type.Union([...EXTENSION_UI_REQUEST_SCHEMAS]);
export type ExtensionUiRequest = Static<typeof ExtensionUiRequestSchema>;

/** Answered by host_tool_update frames and exactly one host_tool_result. */
export const HostToolCallSchema = Type.Object(
  { type: Type.Literal("host_tool_call"), id: Str, toolCallId: Str, toolName: Str, arguments: RecordSchema },
  { description: "Execute a host tool; answer with host_tool_result using this id." },
);
/** No answer: the host should stop work on targetId. */
export const HostToolCancelSchema = Type.Object(
  { type: Type.Literal("host_tool_cancel"), id: Str, targetId: Str },
  { description: "The host tool call targetId was aborted." },
);
/** No answer: an extension handler or command threw. */
export const ExtensionErrorSchema = Type.Object(
  { type: Type.Literal("extension_error"), extensionPath: Str, event: Str, error: Str },
  { description: "An extension handler or command threw." },
);

export type ReadyFrame = Static<typeof ReadyFrameSchema>;
export type HostToolCall = Static<typeof HostToolCallSchema>;
export type HostToolCancel = Static<typeof HostToolCancelSchema>;
export type ExtensionError = Static<typeof ExtensionErrorSchema>;

export const OutboundFrameSchema = Type.Union(
  [
    ReadyFrameSchema,
    RpcResponseSchema,
    ...AGENT_EVENT_SCHEMAS,
    ...SESSION_EVENT_SCHEMAS,
    ...EXTENSION_UI_REQUEST_SCHEMAS,
    HostToolCallSchema,
    HostToolCancelSchema,
    ExtensionErrorSchema,
    ...LIVENESS_FRAME_SCHEMAS,
    ...FRAMING_FRAME_SCHEMAS,
  ],
  { description: "Anything pith writes to stdout." },
);

export type OutboundFrame = Static<typeof OutboundFrameSchema>;
