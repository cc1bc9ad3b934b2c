// The RPC server: reads inbound lines, validates each once at the boundary, dispatches
// commands in arrival order (control commands and sub-protocol replies never wait behind a
// long command), writes responses, and turns session events into frames.
import { parseFrame, type LineItem } from "../transport/jsonl-reader.js";
import { unknownCommandError, validateInbound, type RpcCommand } from "../protocol/index.js";
import type { AgentSession } from "../session/agent-session.js";
import { UserBash } from "../session/user-bash.js";
import { errorMessage } from "../shared/errors.js";
import { COMMANDS, CONTROL_COMMANDS, type CommandContext } from "./commands/index.js";
import { EventFramer, type FrameSink } from "./event-frames.js";
import type { HostToolBridge } from "./host-tools.js";
import type { RpcUiBridge } from "./ui-bridge.js";

export interface RpcWriter extends FrameSink {
  /** Resolves when every written frame has been handed to the OS. */
  flush(): Promise<void>;
}

export interface RpcServerOptions {
  session: AgentSession;
  lines: AsyncIterable<LineItem>;
  writer: RpcWriter;
  hostTools: HostToolBridge;
  ui: RpcUiBridge;
  deltaOnly?: boolean;
  log(message: string): void;
}

type Id = string | number | undefined;

export class RpcServer {
  readonly framer: EventFramer;
  private readonly ctx: CommandContext;
  private queue: Promise<void> = Promise.resolve();
  private shuttingDown = false;
  private exitRequested: (() => void) | undefined;

  constructor(private readonly opts: RpcServerOptions) {
    this.framer = new EventFramer(opts.writer, { deltaOnly: opts.deltaOnly });
    this.ctx = {
      session: opts.session,
      framer: this.framer,
      hostTools: opts.hostTools,
      userBash: new UserBash(opts.session),
      lateError: (command, id, err) => this.respond(id, command, { success: false, error: errorMessage(err) }),
    };
    opts.session.subscribe((event) => this.framer.push(event));
  }

  /** Serves until stdin ends (or an extension asks to shut down); resolves with the exit code. */
  async serve(): Promise<number> {
    const ended = this.readAll();
    const shutdown = new Promise<void>((resolve) => (this.exitRequested = resolve));
    await Promise.race([ended, shutdown]);
    return this.finish();
  }

  private async readAll(): Promise<void> {
    for await (const item of this.opts.lines) {
      if ("error" in item) {
        this.parseError(item.error);
        continue;
      }
      const parsed = parseFrame(item.line);
      if (!parsed.ok) {
        this.parseError(parsed.error);
        continue;
      }
      try {
        this.dispatch(parsed.value);
      } catch (err) {
        // Last line of defence: whatever a line holds, it is answered and reading goes on.
        this.parseError(errorMessage(err));
      }
    }
  }

  /** One parsed inbound value (public for tests). */
  dispatch(value: unknown): void {
    const result = validateInbound(value);
    switch (result.kind) {
      case "ui_response":
        this.opts.ui.handleResponse(result.frame);
        return;
      case "host_tool_result":
        this.opts.hostTools.handleResult(result.frame);
        return;
      case "host_tool_update":
        this.opts.hostTools.handleUpdate(result.frame);
        return;
      case "ignored":
        this.opts.log(`ignored ${result.type}: ${result.error}`);
        return;
      case "unknown": {
        const type = result.type;
        const command = typeof type === "string" ? type : undefined;
        this.respond(result.id, command, { success: false, error: unknownCommandError(type) });
        return;
      }
      case "invalid":
        this.respond(result.id, result.command, { success: false, error: result.error });
        return;
      case "command":
        if (CONTROL_COMMANDS.has(result.command.type)) void this.execute(result.command);
        else this.queue = this.queue.then(() => this.execute(result.command));
    }
  }

  private async execute(cmd: RpcCommand): Promise<void> {
    const handler = COMMANDS[cmd.type] as (c: RpcCommand, ctx: CommandContext) => unknown;
    try {
      const data = await handler(cmd, this.ctx);
      this.respond(cmd.id, cmd.type, data === undefined ? { success: true } : { success: true, data });
    } catch (err) {
      this.respond(cmd.id, cmd.type, { success: false, error: errorMessage(err) });
    }
    this.checkShutdown();
  }

  private respond(id: Id, command: string | undefined, body: { success: boolean; data?: unknown; error?: string }): void {
    const frame: Record<string, unknown> = { type: "response" };
    if (id !== undefined) frame.id = id;
    if (command !== undefined) frame.command = command;
    Object.assign(frame, body);
    this.framer.flush();
    this.opts.writer.write(frame);
  }

  private parseError(error: string): void {
    this.respond(undefined, "parse", { success: false, error: `Failed to parse command: ${error}` });
  }

  /** An extension called `ctx.shutdown()`: honoured after the command that is answered. */
  private checkShutdown(): void {
    if (this.opts.session.deps.extensions?.shutdownRequested && !this.shuttingDown) {
      this.shuttingDown = true;
      void this.opts.session.deps.extensions.emit({ type: "session_shutdown" }).then(() => this.exitRequested?.());
    }
  }

  /** stdin EOF (design.md §4.10): finish accepted work, fail what needs the host, flush, exit 0. */
  private async finish(): Promise<number> {
    this.opts.ui.cancelAll();
    this.opts.hostTools.rejectAll();
    await this.queue;
    await this.opts.session.waitForIdle();
    this.framer.flush();
    await this.opts.writer.flush();
    return 0;
  }

  /** SIGINT/SIGTERM: abort the run, flush what was written. */
  async terminate(): Promise<void> {
    this.opts.ui.cancelAll();
    this.opts.hostTools.rejectAll();
    this.ctx.userBash.abort();
    await Promise.race([this.opts.session.abort(), new Promise((r) => setTimeout(r, 2000).unref())]);
    this.framer.flush();
    await Promise.race([this.opts.writer.flush(), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
