// Serves `host_tool_call` frames with the registered host tools: streams
// `host_tool_update`, answers exactly one `host_tool_result` (isError when execute throws),
// and aborts the execute signal on `host_tool_cancel`.
import type { HostToolCall, HostToolCancel, RpcHostToolDefinition } from "../protocol/index.js";
import type { AgentToolResult } from "../shared/types.js";
import type { HostTool } from "./types.js";

export class HostToolRunner {
  private tools = new Map<string, HostTool>();
  private readonly running = new Map<string, AbortController>();

  constructor(
    private readonly send: (frame: object) => void,
    private readonly reportError: (error: unknown) => void,
  ) {}

  /** Replaces the executors; returns the wire definitions (without `execute`). */
  register(tools: HostTool[]): RpcHostToolDefinition[] {
    this.tools = new Map(tools.map((t) => [t.name, t]));
    return tools.map(({ name, label, description, parameters, hidden, readOnly }) =>
      dropUndefined({ name, label, description, parameters, hidden, readOnly }),
    );
  }

  /** Number of calls currently executing. */
  get activeCalls(): number {
    return this.running.size;
  }

  handleCall(call: HostToolCall): void {
    const tool = this.tools.get(call.toolName);
    if (!tool) {
      this.reply(call.id, errorResult(`No host handler registered for tool "${call.toolName}"`), true);
      return;
    }
    const controller = new AbortController();
    this.running.set(call.id, controller);
    const ctx = {
      signal: controller.signal,
      toolCallId: call.toolCallId,
      update: (partial: AgentToolResult) => {
        if (this.running.get(call.id) === controller) this.safeSend({ type: "host_tool_update", id: call.id, partialResult: partial });
      },
    };
    let started: Promise<AgentToolResult>;
    try {
      started = Promise.resolve(tool.execute(call.arguments, ctx));
    } catch (err) {
      started = Promise.reject(err);
    }
    started.then(
      (result) => this.finish(call.id, controller, result, false),
      (err) => this.finish(call.id, controller, errorResult(messageOf(err)), true),
    );
  }

  handleCancel(cancel: HostToolCancel): void {
    const controller = this.running.get(cancel.targetId);
    if (!controller) return;
    this.running.delete(cancel.targetId);
    controller.abort(new Error("host tool call cancelled by the agent"));
  }

  /** The agent is gone: abort every running call. */
  abortAll(): void {
    for (const controller of this.running.values()) controller.abort(new Error("the agent process exited"));
    this.running.clear();
  }

  private finish(id: string, controller: AbortController, result: AgentToolResult, isError: boolean): void {
    if (this.running.get(id) !== controller) return; // cancelled: pith no longer waits for it
    this.running.delete(id);
    this.reply(id, result, isError);
  }

  private reply(id: string, result: AgentToolResult, isError: boolean): void {
    this.safeSend(isError ? { type: "host_tool_result", id, result, isError: true } : { type: "host_tool_result", id, result });
  }

  private safeSend(frame: object): void {
    try {
      this.send(frame);
    } catch (err) {
      this.reportError(err);
    }
  }
}

function errorResult(text: string): AgentToolResult {
  return { content: [{ type: "text", text }] };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
