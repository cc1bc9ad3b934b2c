// The RPC front door: `new RpcServer(session, transport)`. It reads inbound lines, validates each
// once at the boundary, dispatches commands in arrival order (control commands and sub-protocol
// replies never wait behind a long command), writes responses, and turns the session's events
// into frames — all through one typed sink. It knows the session only through its facade.
import { unknownCommandError, validateInbound, type RpcCommand, type RpcResponse } from "../protocol/index.js";
import type { AgentSession, ExtensionBindings } from "../session/index.js";
import { errorMessage } from "../shared/errors.js";
import { snowflake } from "../shared/ids.js";
import { parseFrame, type Transport } from "../transport/index.js";
import { COMMANDS, CONTROL_COMMANDS, type CommandContext } from "./commands/index.js";
import { EventFramer } from "./event-frames.js";
import { createHostToolBridge, type HostToolBridge } from "./host-tools.js";
import { createRpcUiBridge, type RpcUiBridge } from "./ui-bridge.js";

export interface RpcServerOptions {
  /** Delta-only `message_update` frames from the start (`--delta-streaming`). */
  deltaOnly?: boolean;
  /** Send `setTitle` dialogs (PITH_RPC_EMIT_TITLE / PI_RPC_EMIT_TITLE, not --no-title). */
  emitTitle?: boolean;
  /** Ids of outbound requests (dialogs, host tool calls); default: snowflakes. */
  newId?: () => string;
  /** Diagnostics (stderr). */
  log(message: string): void;
}

type Id = string | number | undefined;
type ResponseBody = { success: true; data?: unknown } | { success: false; error: string; code?: string };

/** The error answer for anything a handler threw; `code` when the error defines a wire code. */
function failureOf(err: unknown): { success: false; error: string; code?: string } {
  const code = (err as { wireCode?: unknown } | null)?.wireCode;
  return typeof code === "string" ? { success: false, error: errorMessage(err), code } : { success: false, error: errorMessage(err) };
}

export class RpcServer {
  readonly framer: EventFramer;
  /** What extensions attached to this front door use: the RPC dialogs and error frames. */
  readonly extensionBindings: ExtensionBindings;
  private readonly ui: RpcUiBridge;
  private readonly hostTools: HostToolBridge;
  private readonly ctx: CommandContext;
  private queue: Promise<void> = Promise.resolve();
  private shuttingDown = false;
  private exitRequested: (() => void) | undefined;

  constructor(
    private readonly session: AgentSession,
    private readonly transport: Transport,
    private readonly opts: RpcServerOptions,
  ) {
    this.framer = new EventFramer(transport.writer, { deltaOnly: opts.deltaOnly });
    const newId = opts.newId ?? (() => snowflake());
    this.ui = createRpcUiBridge({ writeFrame: (f) => this.framer.write(f), newId, emitTitle: opts.emitTitle ?? false });
    this.hostTools = createHostToolBridge({ writeFrame: (f) => this.framer.write(f), newId });
    this.ctx = {
      session,
      framer: this.framer,
      hostTools: this.hostTools,
      lateError: (command, id, err) => this.respond(id, command, { success: false, error: errorMessage(err) }),
    };
    this.extensionBindings = {
      ui: this.ui,
      hasUI: true,
      onError: (info) => {
        opts.log(`Extension error (${info.extensionPath}): ${info.error}`);
        this.framer.write({ type: "extension_error", ...info });
      },
      onPromptError: (command, error) => this.framer.write({ type: "response", command, success: false, error }),
    };
    session.subscribe((event) => this.framer.push(event));
  }

  /** The first frame of the process (design.md §4.2). */
  ready(version: string): void {
    this.framer.write({ type: "ready", version });
  }

  /** Serves until the input ends (or an extension asks to shut down); resolves with the exit code. */
  async serve(): Promise<number> {
    const ended = this.readAll();
    const shutdown = new Promise<void>((resolve) => (this.exitRequested = resolve));
    await Promise.race([ended, shutdown]);
    return this.finish();
  }

  private async readAll(): Promise<void> {
    for await (const item of this.transport.lines) {
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
        this.ui.handleResponse(result.frame);
        return;
      case "host_tool_result":
        this.hostTools.handleResult(result.frame);
        return;
      case "host_tool_update":
        this.hostTools.handleUpdate(result.frame);
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
    // Each handler is typed by its own command; the table is indexed by the validated `type`.
    const handler = COMMANDS[cmd.type] as (c: RpcCommand, ctx: CommandContext) => unknown;
    try {
      const data = await handler(cmd, this.ctx);
      this.respond(cmd.id, cmd.type, data === undefined ? { success: true } : { success: true, data });
    } catch (err) {
      this.respond(cmd.id, cmd.type, failureOf(err));
    }
    this.checkShutdown();
  }

  private respond(id: Id, command: string | undefined, body: ResponseBody): void {
    const frame = { type: "response", ...(id !== undefined ? { id } : {}), ...(command !== undefined ? { command } : {}), ...body };
    // `command` is absent only for lines whose type could not be read (answered as errors).
    try {
      this.framer.write(frame as RpcResponse);
    } catch (err) {
      // data that cannot be written (JSON.stringify overflowed) must not stall the command queue
      if (!body.success) throw err;
      this.respond(id, command, { success: false, error: `Cannot write the response: ${errorMessage(err)}` });
    }
  }

  private parseError(error: string): void {
    this.respond(undefined, "parse", { success: false, error: `Failed to parse command: ${error}` });
  }

  /** An extension called `ctx.shutdown()`: honoured after the command that is answered. */
  private checkShutdown(): void {
    if (this.session.extensions.shutdownRequested && !this.shuttingDown) {
      this.shuttingDown = true;
      void this.session.extensions.shutdown().then(() => this.exitRequested?.());
    }
  }

  /** Input EOF (design.md §4.10): finish accepted work, fail what needs the host, flush, exit 0. */
  private async finish(): Promise<number> {
    this.ui.cancelAll();
    this.hostTools.rejectAll();
    await this.queue;
    await this.session.waitForIdle();
    this.framer.flush();
    await this.transport.writer.flush();
    return 0;
  }

  /** SIGINT/SIGTERM: abort the run, flush what was written. */
  async terminate(): Promise<void> {
    this.ui.cancelAll();
    this.hostTools.rejectAll();
    this.session.bash.abort();
    await Promise.race([this.session.abort(), new Promise((r) => setTimeout(r, 2000).unref())]);
    this.framer.flush();
    await Promise.race([this.transport.writer.flush(), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
