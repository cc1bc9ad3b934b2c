// The RPC front door: `new RpcServer(session, transport)`. It reads inbound lines, validates each
// once at the boundary, dispatches commands in arrival order (control commands and sub-protocol
// replies never wait behind a long command), writes responses, and turns the session's events
// into frames — all through one typed sink. It knows the session only through its facade.
import { unknownCommandError, validateInbound, type RpcCommand, type RpcResponse } from "../protocol/index.js";
import type { AgentSession, ExtensionBindings } from "../session/index.js";
import { errorMessage } from "../shared/errors.js";
import { snowflake } from "../shared/ids.js";
import { parseFrame, type Transport } from "../transport/index.js";
import { COMMANDS, CONTROL_COMMANDS, onArrival, type CommandContext, type Deferred } from "./commands/index.js";
import type { EventFramer } from "./event-frames.js";
import { FrameEncoder } from "./frame-encoder.js";
import { readyFrame, supportedProtocolVersions, type MessageTransportInfo } from "./ready.js";
import type { HostToolBridge } from "./host-tools.js";
import { ClosedSessionError, SessionRouter, type SessionFactory, type SessionSlot } from "./session-router.js";
import type { RpcUiBridge } from "./ui-bridge.js";

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
  /** Builds further sessions for `create_session` (the composition root's); absent: one session only. */
  sessionFactory?: SessionFactory;
  /** The transport carries one frame per message (WebSocket): said in `ready`, no version 2 framing. */
  wire?: MessageTransportInfo;
}

type Id = string | number | undefined;
type ResponseBody = { success: true; data?: unknown } | { success: false; error: string; code?: string };

/** The error answer for anything a handler threw; `code` when the error defines a wire code (oh-my-pi's or pith's). */
function failureOf(err: unknown): { success: false; error: string; code?: string } {
  const e = err as { wireCode?: unknown; rpcCode?: unknown } | null;
  const code = e?.wireCode ?? e?.rpcCode;
  return typeof code === "string" ? { success: false, error: errorMessage(err), code } : { success: false, error: errorMessage(err) };
}

export class RpcServer {
  readonly framer: EventFramer;
  /** Protocol version 1 or 2 framing of every frame written. */
  readonly encoder: FrameEncoder;
  /** What extensions attached to this front door use: the RPC dialogs and error frames. */
  readonly extensionBindings: ExtensionBindings;
  private readonly ui: RpcUiBridge;
  private readonly hostTools: HostToolBridge;
  private readonly ctx: CommandContext;
  /** The process's sessions; the first is the one the server was built with. */
  readonly router: SessionRouter;
  private shuttingDown = false;
  private exitRequested: (() => void) | undefined;

  constructor(
    private readonly session: AgentSession,
    private readonly transport: Transport,
    private readonly opts: RpcServerOptions,
  ) {
    this.encoder = new FrameEncoder(transport.writer);
    this.router = new SessionRouter(session, {
      sink: this.encoder,
      deltaOnly: opts.deltaOnly,
      emitTitle: opts.emitTitle ?? false,
      heartbeatMs: opts.heartbeatMs,
      version: opts.version ?? "0.0.0",
      protocolVersions: supportedProtocolVersions(opts.wire),
      newId: opts.newId ?? (() => snowflake()),
      log: opts.log,
      factory: opts.sessionFactory,
      lateError: (slot, command, id, err) => this.respond(id, command, { success: false, error: errorMessage(err) }, slot),
    });
    const main = this.router.defaultSlot;
    this.framer = main.framer;
    this.ui = main.ui;
    this.hostTools = main.hostTools;
    this.ctx = main.ctx;
    this.extensionBindings = main.extensionBindings;
  }

  /** The first frame of the process. */
  ready(version: string): void {
    this.framer.write(readyFrame(version, this.opts.wire));
  }

  /** Writes `available_commands_update` if the extensions just attached registered commands. */
  announceCommands(): void {
    this.router.defaultSlot.commands.check();
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
        this.router.forEachSlot((slot) => slot.ui.handleResponse(result.frame));
        return;
      case "host_tool_result":
        this.router.forEachSlot((slot) => slot.hostTools.handleResult(result.frame));
        return;
      case "host_tool_update":
        this.router.forEachSlot((slot) => slot.hostTools.handleUpdate(result.frame));
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
      case "command": {
        const cmd = result.command;
        let slot: SessionSlot;
        try {
          slot = this.router.slotFor(cmd.sessionId);
        } catch (err) {
          this.respond(cmd.id, cmd.type, failureOf(err));
          return;
        }
        if (CONTROL_COMMANDS.has(cmd.type)) {
          void this.execute(cmd, slot);
          return;
        }
        const deferred = onArrival(cmd, slot.ctx);
        slot.queue = slot.queue.then(() => this.execute(cmd, slot, deferred));
      }
    }
  }

  /** Runs a command's handler, or the work it deferred on arrival, and answers it. */
  private async execute(cmd: RpcCommand, slot: SessionSlot, deferred?: Deferred): Promise<void> {
    // Each handler is typed by its own command; the table is indexed by the validated `type`.
    const handler = COMMANDS[cmd.type] as (c: RpcCommand, ctx: CommandContext) => unknown;
    try {
      // queued behind work that close_session ended: the session is gone, say so
      if (slot.closed) throw new ClosedSessionError(slot.id);
      const data = await (deferred ? deferred() : handler(cmd, slot.ctx));
      this.respond(cmd.id, cmd.type, data === undefined ? { success: true } : { success: true, data }, slot);
    } catch (err) {
      this.respond(cmd.id, cmd.type, failureOf(err), slot);
    }
    slot.commands.check();
    this.checkShutdown();
  }

  /** Writes a response through the addressed session's framer (stamped for non-default sessions). */
  private respond(id: Id, command: string | undefined, body: ResponseBody, slot: SessionSlot = this.router.defaultSlot): void {
    const frame = { type: "response", ...(id !== undefined ? { id } : {}), ...(command !== undefined ? { command } : {}), ...body };
    // `command` is absent only for lines whose type could not be read (answered as errors).
    try {
      slot.framer.write(frame as RpcResponse);
    } catch (err) {
      // data that cannot be written (JSON.stringify overflowed) must not stall the command queue
      if (!body.success) throw err;
      this.respond(id, command, { success: false, error: `Cannot write the response: ${errorMessage(err)}` }, slot);
    }
  }

  private parseError(error: string): void {
    this.respond(undefined, "parse", { success: false, error: `Failed to parse command: ${error}` });
  }

  /** An extension called `ctx.shutdown()`: honoured after the command that is answered. */
  private checkShutdown(): void {
    if (this.session.shutdownRequested && !this.shuttingDown) {
      this.shuttingDown = true;
      void this.session.shutdownExtensions().then(() => this.exitRequested?.());
    }
  }

  /** Input EOF: finish accepted work, fail what needs the host, flush, exit 0. */
  private async finish(): Promise<number> {
    for (const slot of this.router.all()) {
      slot.heartbeat.stop();
      slot.ui.cancelAll();
      slot.hostTools.rejectAll();
    }
    await Promise.all(
      this.router.all().map(async (slot) => {
        await slot.queue;
        // Idle, and the prompt_result / session_settled frames of that moment written.
        await slot.session.waitForSettled();
        slot.framer.flush();
      }),
    );
    for (const slot of this.router.all()) if (!slot.isDefault) await this.router.close(slot.id);
    await this.transport.writer.flush();
    return 0;
  }

  /** Writes out every frame produced so far (each session's pending frames, then the transport's queue). */
  async flushOutput(): Promise<void> {
    for (const slot of this.router.all()) slot.framer.flush();
    await this.transport.writer.flush();
  }

  /** Resolves once every session's queued commands are answered and no run is going on (draining). */
  async idle(): Promise<void> {
    await Promise.all(
      this.router.all().map(async (slot) => {
        await slot.queue;
        await slot.session.waitForSettled();
      }),
    );
  }

  /**
   * The host is gone (its connection closed): commands still queued fail, every run is aborted,
   * dialogs and host tool calls end, and every session (the first one too) is flushed, closed and
   * unlocked, so another connection can open its file. Idempotent.
   */
  disconnect(): Promise<void> {
    this.disconnecting ??= this.router.closeAll();
    return this.disconnecting;
  }
  private disconnecting: Promise<void> | undefined;

  /** SIGINT/SIGTERM: abort the run, flush what was written. */
  async terminate(): Promise<void> {
    const slots = this.router.all();
    for (const slot of slots) {
      slot.heartbeat.stop();
      slot.ui.cancelAll();
      slot.hostTools.rejectAll();
      void slot.session.handle({ type: "abort_bash" });
    }
    await Promise.race([Promise.all(slots.map((slot) => slot.session.abort())), new Promise((r) => setTimeout(r, 1000).unref())]);
    await Promise.race([this.flushOutput(), new Promise((r) => setTimeout(r, 400).unref())]);
  }
}
