// Host tools (protocol.md §3.10, §9): tools the embedding host defines with `set_host_tools`
// and executes itself. A call is a `host_tool_call` frame; the host streams `host_tool_update`s
// and answers once with `host_tool_result`; abort sends `host_tool_cancel`.
// The returned tools satisfy the tools layer's Tool contract structurally (rpc does not import
// tools).
import { PithError } from "../shared/errors.js";
import type { AgentToolResult } from "../shared/types.js";

export const HOST_TOOL_NAME_RE = /^[A-Za-z0-9_-]{1,64}$/;
export const HOST_DISCONNECTED = "RPC client disconnected before host tool execution completed";
export const HOST_TOOL_FAILED = "Host tool execution failed";

export interface HostToolContext {
  toolCallId: string;
  signal: AbortSignal;
  onUpdate: (partial: AgentToolResult) => void;
}

export interface HostTool {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  concurrency: "shared";
  hidden: boolean;
  source: "host";
  execute(args: Record<string, unknown>, ctx: HostToolContext): Promise<AgentToolResult>;
}

export interface HostToolResultFrame {
  id: string;
  result: AgentToolResult;
  isError?: boolean;
}
export interface HostToolUpdateFrame {
  id: string;
  partialResult: AgentToolResult;
}

export interface HostToolBridgeOptions {
  writeFrame(frame: object): void;
  newId(): string;
}

export interface HostToolBridge {
  /** Validates a `set_host_tools` `tools` value; throws PithError with the §3.10 messages. */
  define(defs: unknown): { tools: HostTool[]; names: string[] };
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

const invalid = (message: string) => new PithError("invalid_request", message);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

interface NormalizedDef {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  hidden: boolean;
}

function normalize(def: unknown, index: number): NormalizedDef {
  const d = isPlainObject(def) ? def : {};
  const name = typeof d.name === "string" ? d.name.trim() : "";
  if (!name) throw invalid(`Host tool at index ${index} must provide a non-empty name`);
  const description = typeof d.description === "string" ? d.description.trim() : "";
  if (!description) throw invalid(`Host tool "${name}" must provide a non-empty description`);
  if (!isPlainObject(d.parameters)) throw invalid(`Host tool "${name}" must provide a JSON Schema object`);
  if (!HOST_TOOL_NAME_RE.test(name)) {
    throw invalid(`Host tool "${name}" has an invalid name: use letters, digits, _ or - (at most 64)`);
  }
  const label = typeof d.label === "string" && d.label.trim() ? d.label.trim() : name;
  return { name, label, description, parameters: d.parameters, hidden: d.hidden === true };
}

/** The host's error text: its text blocks joined with "\n" and trimmed, or the default. */
function errorText(result: AgentToolResult | undefined): string {
  const blocks = Array.isArray(result?.content) ? result.content : [];
  const text = blocks
    .filter((b): b is { type: "text"; text: string } => b?.type === "text" && typeof b.text === "string")
    .map((b) => b.text)
    .join("\n")
    .trim();
  return text || HOST_TOOL_FAILED;
}

/** Throws when a host tool name equals a non-host tool's (case-sensitive). */
export function checkHostToolConflicts(names: readonly string[], existingNonHostNames: Iterable<string>): void {
  const existing = new Set(existingNonHostNames);
  for (const name of names) {
    if (existing.has(name)) throw invalid(`RPC host tool "${name}" conflicts with an existing tool`);
  }
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

  function toTool(def: NormalizedDef): HostTool {
    return { ...def, concurrency: "shared", source: "host", execute: (args, ctx) => call(def.name, args, ctx) };
  }

  return {
    define(defs) {
      if (!Array.isArray(defs)) throw invalid("tools must be an array");
      const normalized = defs.map(normalize);
      const names = normalized.map((d) => d.name);
      if (new Set(names).size !== names.length) throw invalid("RPC host tool names must be unique");
      return { tools: normalized.map(toTool), names };
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
