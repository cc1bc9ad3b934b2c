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
import { CommandAnnouncer } from "./available-commands.js";
import { EventFramer } from "./event-frames.js";
import { Heartbeat } from "./heartbeat.js";
import { FrameEncoder } from "./frame-encoder.js";
import { readyFrame } from "./ready.js";
import { createHostToolBridge, type HostToolBridge } from "./host-tools.js";
import { MessageIdStamper } from "./message-ids.js";
import { PromptResults } from "./prompt-results.js";
import { createRpcPermissionAsker } from "./permission-asker.js";
import { createRpcUiBridge, type RpcUiBridge } from "./ui-bridge.js";

export interface RpcServerOptions {
  /** Delta-only `message_update` frames from the start (`--delta-streaming`). */
  deltaOnly?: boolean;
  /** Send `setTitle` dialogs (PITH_RPC_EMIT_TITLE / PI_RPC_EMIT_TITLE, not --no-title). */
  emitTitle?: boolean;
  /** `--heartbeat <ms>`: heartbeat frames from the start (0 or absent = off). */
  heartbeatMs?: number;
  /** pith's version, for get_integrations. */
  version?: string;
  /** Ids of outbound requests (dialogs, host tool calls); default: snowflakes. */
  newId?: () => string;
  /** Diagnostics (stderr). */
  log(message: string): void;
}

type Id = string | number | undefined;

/** oh-my-pi's machine-readable `code` on an error response, for errors that carry one. */
function rpcCode(err: unknown): { code?: string } {
  const code = (err as { rpcCode?: unknown } | null)?.rpcCode;
  return typeof code === "string" ? { code } : {};
}

export class RpcServer {
  readonly framer: EventFramer;
  /** Protocol version 1 or 2 framing of every frame written. */
  readonly encoder: FrameEncoder;
  /** What extensions attached to this front door use: the RPC dialogs and error frames. */
  readonly extensionBindings: ExtensionBindings;
  private readonly ui: RpcUiBridge;
  private readonly hostTools: HostToolBridge;
  private readonly heartbeat: Heartbeat;
  private readonly ctx: CommandContext;
  private readonly commands: CommandAnnouncer;
  private queue: Promise<void> = Promise.resolve();
  private shuttingDown = false;
  private exitRequested: (() => void) | undefined;

  constructor(
    private readonly session: AgentSession,
    private readonly transport: Transport,
    private readonly opts: RpcServerOptions,
  ) {
    this.encoder = new FrameEncoder(transport.writer);
    this.framer = new EventFramer(this.encoder, { deltaOnly: opts.deltaOnly });
    this.commands = new CommandAnnouncer(() => session.extensions.commands(), (f) => this.framer.write(f));
    const newId = opts.newId ?? (() => snowflake());
    this.ui = createRpcUiBridge({ writeFrame: (f) => this.framer.write(f), newId, emitTitle: opts.emitTitle ?? false });
    this.hostTools = createHostToolBridge({ writeFrame: (f) => this.framer.write(f), newId });
    this.heartbeat = new Heartbeat({
      activity: () => session.activity(),
      waitingOnHost: () => this.hostTools.pendingCount > 0 || this.ui.pendingCount > 0,
      write: (f) => this.framer.write(f),
    });
    if (opts.heartbeatMs) this.heartbeat.set(opts.heartbeatMs);
    this.ctx = {
      session,
      framer: this.framer,
      hostTools: this.hostTools,
      promptResults: new PromptResults({ write: (f) => this.framer.write(f), isSettled: () => session.isSettled }),
      heartbeat: this.heartbeat,
      version: opts.version ?? "0.0.0",
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
    const ids = new MessageIdStamper();
    session.subscribe((event) => this.framer.push(ids.stamp(event)));
    // Approval dialogs of the permission rules go to this host, extensions or not.
    session.permissions.setAsker(createRpcPermissionAsker(this.ui));
  }

  /** The first frame of the process (design.md §4.2). */
  ready(version: string): void {
    this.framer.write(readyFrame(version));
  }

  /** Writes `available_commands_update` if the extensions just attached registered commands. */
  announceCommands(): void {
    this.commands.check();
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
      this.respond(cmd.id, cmd.type, { success: false, error: errorMessage(err), ...rpcCode(err) });
    }
    this.commands.check();
    this.checkShutdown();
  }

  private respond(
    id: Id,
    command: string | undefined,
    body: { success: true; data?: unknown } | { success: false; error: string; code?: string },
  ): void {
    const frame = { type: "response", ...(id !== undefined ? { id } : {}), ...(command !== undefined ? { command } : {}), ...body };
    // `command` is absent only for lines whose type could not be read (answered as errors).
    this.framer.write(frame as RpcResponse);
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
    this.heartbeat.stop();
    this.ui.cancelAll();
    this.hostTools.rejectAll();
    await this.queue;
    // Idle, and the prompt_result / session_settled frames of that moment written.
    await this.session.waitForSettled();
    this.framer.flush();
    await this.transport.writer.flush();
    return 0;
  }

  /** SIGINT/SIGTERM: abort the run, flush what was written. */
  async terminate(): Promise<void> {
    this.heartbeat.stop();
    this.ui.cancelAll();
    this.hostTools.rejectAll();
    this.session.bash.abort();
    await Promise.race([this.session.abort(), new Promise((r) => setTimeout(r, 2000).unref())]);
    this.framer.flush();
    await Promise.race([this.transport.writer.flush(), new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}
