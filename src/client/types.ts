// Public types of the host client: options, frames by type, host tools, UI answers, and the
// type-level list of command methods (one per protocol command type).
import type {
  ExtensionUiRequest,
  OutboundFrame,
  RpcCommandOf,
  RpcCommandType,
  RpcHostToolDefinition,
  RpcResponseData,
} from "../protocol/index.js";
import type { AgentToolResult } from "../shared/types.js";

/** How to start the agent process. */
export interface RpcClientOptions {
  /**
   * The executable. Default: `process.execPath` running the `cli.js` next to the client
   * bundle (or `cliPath`) with `--mode rpc` in front of `args`. When set, `command` is spawned
   * with exactly `args`, so the client can drive any agent that speaks the protocol.
   */
  command?: string;
  /** Extra CLI arguments (default command), or every argument (custom `command`). */
  args?: string[];
  /** The pith CLI script for the default command. Default: `./cli.js` beside this module. */
  cliPath?: string;
  /** Environment of the child. Default: this process's environment. */
  env?: Record<string, string | undefined>;
  /** Working directory of the child. */
  cwd?: string;
  /** Wait for the `ready` frame before `start()` resolves. Default true (pi dialects: false). */
  waitForReady?: boolean;
  /** How long to wait for `ready`. Default 30 000 ms. */
  readyTimeoutMs?: number;
  /** Reject a request that has no response after this long. Default: never. */
  requestTimeoutMs?: number;
  /** `close()` waits this long for a clean exit before killing the process group. Default 5 000 ms. */
  closeGraceMs?: number;
  /** Receives stderr text as it arrives (it is also kept, capped, in `client.stderr`). */
  onStderr?: (text: string) => void;
  /**
   * 2: after `ready`, negotiate protocol version 2 when the agent offers it, so that no stdout
   * line exceeds 1 MiB; the client reassembles `rpc_chunk` frames and restores `agent_end`
   * messages, so listeners see the same frames as in version 1. Default 1.
   */
  protocolVersion?: 1 | 2;
  /** Receives errors thrown by event listeners and handlers. Default: console.error. */
  onError?: (error: unknown) => void;
}

export type OutboundFrameType = OutboundFrame["type"];
/** The frame shape for one outbound `type`. */
export type FrameOf<T extends OutboundFrameType> = Extract<OutboundFrame, { type: T }>;
export type FrameHandler<T extends OutboundFrameType> = (frame: FrameOf<T>) => void;

/** What a host tool's `execute` receives besides the arguments. */
export interface HostToolContext {
  /** Aborted when pith sends `host_tool_cancel` for this call (or the client closes). */
  signal: AbortSignal;
  /** The model's tool call id (matches `tool_execution_*` events). */
  toolCallId: string;
  /** Streams a partial result (`host_tool_update`); ignored after the call ended. */
  update(partial: AgentToolResult): void;
}

/** A host tool: the wire definition plus the function that runs it in the host. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a handler reads its arguments as the shapes its schema declares
export type HostTool<A extends Record<string, unknown> = Record<string, any>> = RpcHostToolDefinition & {
  /** Resolve with the result; throw to report `isError: true` with the error message. */
  execute(args: A, ctx: HostToolContext): Promise<AgentToolResult>;
};

/** A host tool of any argument type (a list of tools mixes them; each checks its own arguments). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see above
export type AnyHostTool = HostTool<any>;

/** The dialogs that expect an answer; `sessionId` names the created session that asks (absent: the first). */
export type UiDialogRequest = Extract<ExtensionUiRequest, { method: "select" | "confirm" | "input" | "editor" }> & { sessionId?: string };

/** The answer fields of an `extension_ui_response`. */
export type UiAnswer = { value: string } | { confirmed: boolean } | { cancelled: true; timedOut?: boolean };

/** Answers one dialog; `undefined` answers `{cancelled: true}`. `signal` aborts when pith cancels the dialog. */
export type UiRequestHandler = (request: UiDialogRequest, ctx: { signal: AbortSignal }) => Promise<UiAnswer | undefined>;

/** Options of `promptAndWait`. */
export interface PromptAndWaitOptions {
  images?: RpcCommandOf<"prompt">["images"];
  streamingBehavior?: "steer" | "followUp";
  /** Reject if the agent is not idle after this long. Default: never. */
  timeoutMs?: number;
  /** pith: a JSON Schema the answer must match (see `promptForOutput`). */
  outputSchema?: object;
}

/** `snake_case` → `camelCase`, as command types map to method names. */
export type CamelCase<S extends string> = S extends `${infer H}_${infer T}` ? `${H}${Capitalize<CamelCase<T>>}` : S;

/** The parameters of a command (everything but `id` and `type`). */
export type CommandParams<T extends RpcCommandType> = Omit<RpcCommandOf<T>, "id" | "type">;

/**
 * One method per command type, resolving with that command's `data`. `RpcCommands` (the base
 * of RpcClient) implements this, so a command added to the protocol without a client method
 * fails the typecheck.
 */
export type CommandMethods = {
  [K in RpcCommandType as CamelCase<K>]: (...args: any[]) => Promise<RpcResponseData<K>>;
};

/** The method name of a command type (runtime twin of `CamelCase`). */
export function methodNameOf<T extends RpcCommandType>(type: T): CamelCase<T> {
  return type.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase()) as CamelCase<T>;
}
