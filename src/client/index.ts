// pith/client: drive `pith --mode rpc` (or any agent speaking the protocol) from TypeScript.
export { RpcClient } from "./rpc-client.js";
export { RpcConnection, type ConnectOptions, type ExitInfo } from "./connection.js";
export { RpcError, RpcClientError } from "./errors.js";
export { SessionHandle } from "./session-handle.js";
export type { ListSessionsOptions } from "./session-methods.js";
export { JsonlLineSplitter } from "../transport/jsonl-reader.js";
export { parseFrameLine } from "./frame-line.js";
export { resolveCommand } from "./process-group.js";
export {
  methodNameOf,
  type CamelCase,
  type CommandMethods,
  type CommandParams,
  type FrameHandler,
  type FrameOf,
  type HostTool,
  type HostToolContext,
  type OutboundFrameType,
  type PromptAndWaitOptions,
  type RpcClientOptions,
  type UiAnswer,
  type UiDialogRequest,
  type UiRequestHandler,
} from "./types.js";
export type {
  ExtensionUiRequest,
  HostToolCall,
  OutboundFrame,
  RpcCommandType,
  RpcHostToolDefinition,
  RpcResponseData,
  RpcSessionState,
} from "../protocol/index.js";
export type { AgentMessage, AgentSessionEvent, AgentToolResult, ImageContent, Model, TodoPhase } from "../shared/types.js";
