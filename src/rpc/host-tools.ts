// Host tools: tools the embedding host defines with `set_host_tools`
// and executes itself. A call is a `host_tool_call` frame; the host streams `host_tool_update`s
// and answers once with `host_tool_result`; abort sends `host_tool_cancel`.
// The returned tools satisfy the tools layer's Tool contract structurally (rpc does not import
// tools).
import {
  normalizeHostToolDefinitions,
  type HostToolCall,
  type HostToolCancel,
  type HostToolDefinition,
  type HostToolResult,
  type HostToolUpdate,
} from "../protocol/index.js";
import type { AgentToolResult } from "../shared/types.js";

export const HOST_DISCONNECTED = "RPC client disconnected before host tool execution completed";
export const HOST_TOOL_FAILED = "Host tool execution failed";

export interface HostToolContext {
  toolCallId: string;
  signal: AbortSignal;
  onUpdate: (partial: AgentToolResult) => void;
}

export interface HostTool extends HostToolDefinition {
  concurrency: "shared";
  source: "host";
  /** Read-only only when the host's definition says `readOnly: true`; otherwise it may change anything. */
  effect: "read-only" | "unknown";
  execute(args: Record<string, unknown>, ctx: HostToolContext): Promise<AgentToolResult>;
}

export type HostToolResultFrame = Omit<HostToolResult, "type">;
export type HostToolUpdateFrame = Omit<HostToolUpdate, "type">;

export interface HostToolBridgeOptions {
  writeFrame(frame: HostToolCall | HostToolCancel): void;
  newId(): string;
}

export interface HostToolBridge {
  /** Checks a `set_host_tools` `tools` array; throws PithError with the protocol's messages. */
  define(defs: readonly unknown[]): { tools: HostTool[]; names: string[] };
  /** Settles call `frame.id`; false (and nothing happens) when the id is unknown or finished. */
  handleResult(frame: HostToolResultFrame): boolean;
  /** Streams a partial result of call `frame.id`; false when the id is unknown or finished. */
  handleUpdate(frame: HostToolUpdateFrame): boolean;
  /** stdin EOF: fails every pending call, and every later one. */
  rejectAll(message?: string): void;
  readonly pendingCount: number;
}

interface PendingCall {
  resolve(result: AgentToolResult): void;
  reject(error: Error): void;
  onUpdate(partial: AgentToolResult): void;
}


/** The host's error text: its text blocks joined with "\n" and trimmed, or the default. */
function errorText(result: AgentToolResult): string {
  const text = result.content
    .filter((b) => b.type === "text")
    .map((b) => b.text)
    .join("\n")
    .trim();
  return text || HOST_TOOL_FAILED;
}

/** Writes `host_tool_call` and settles on `host_tool_result`, abort or rejectAll. */
function startCall(
  options: HostToolBridgeOptions,
  pending: Map<string, PendingCall>,
  name: string,
  args: Record<string, unknown>,
  ctx: HostToolContext,
): Promise<AgentToolResult> {
  const aborted = () => new Error(`Host tool "${name}" was aborted`);
  if (ctx.signal.aborted) return Promise.reject(aborted());
  const id = options.newId();
  const { _i: _intent, ...rest } = args ?? {};
  return new Promise<AgentToolResult>((resolve, reject) => {
    const done = () => {
      pending.delete(id);
      ctx.signal.removeEventListener("abort", onAbort);
    };
    const onAbort = () => {
      if (!pending.has(id)) return;
      done();
      options.writeFrame({ type: "host_tool_cancel", id: options.newId(), targetId: id });
      reject(aborted());
    };
    pending.set(id, {
      resolve: (r) => (done(), resolve(r)),
      reject: (e) => (done(), reject(e)),
      onUpdate: ctx.onUpdate,
    });
    ctx.signal.addEventListener("abort", onAbort, { once: true });
    options.writeFrame({ type: "host_tool_call", id, toolCallId: ctx.toolCallId, toolName: name, arguments: rest });
  });
}

export function createHostToolBridge(options: HostToolBridgeOptions): HostToolBridge {
  const pending = new Map<string, PendingCall>();
  /** Set by rejectAll (stdin EOF): no host can answer, so later calls fail at once. */
  let disconnected: string | undefined;
  const call = (name: string, args: Record<string, unknown>, ctx: HostToolContext) =>
    disconnected !== undefined ? Promise.reject(new Error(disconnected)) : startCall(options, pending, name, args, ctx);

  function toTool(def: HostToolDefinition): HostTool {
    return { ...def, concurrency: "shared", source: "host", effect: def.readOnly ? "read-only" : "unknown", execute: (args, ctx) => call(def.name, args, ctx) };
  }

  return {
    define(defs) {
      const normalized = normalizeHostToolDefinitions(defs);
      return { tools: normalized.map(toTool), names: normalized.map((d) => d.name) };
    },
    handleResult(frame) {
      const entry = pending.get(frame.id);
      if (!entry) return false;
      if (frame.isError === true) entry.reject(new Error(errorText(frame.result)));
      else entry.resolve(frame.result);
      return true;
    },
    handleUpdate(frame) {
      const entry = pending.get(frame.id);
      if (!entry) return false;
      entry.onUpdate(frame.partialResult);
      return true;
    },
    rejectAll(message = HOST_DISCONNECTED) {
      disconnected = message;
      for (const entry of [...pending.values()]) entry.reject(new Error(message));
    },
    get pendingCount() {
      return pending.size;
    },
  };
}
