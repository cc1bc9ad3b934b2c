// Many sessions in one process. Each session gets a slot: its own EventFramer over the
// shared sink (a non-default session's framer stamps `sessionId` on every frame it writes, so
// frames other front-door code adds are stamped too), its own UI and host-tool bridges, its own
// command queue and its own CommandContext. The session the process started with is the default
// slot and writes frames unchanged, so seed hosts see nothing new.
import type { AgentSession, ExtensionBindings } from "../session/index.js";
import { PithError } from "../shared/errors.js";
import type { CreateSessionParams, CreateSessionResult, OpenSessionInfo } from "../protocol/index.js";
import type { CommandContext, SessionsPort } from "./commands/types.js";
import { CommandAnnouncer } from "./available-commands.js";
import { EventFramer, type FrameSink, type RpcFrame } from "./event-frames.js";
import { Heartbeat } from "./heartbeat.js";
import { createHostToolBridge, type HostToolBridge } from "./host-tools.js";
import { MessageIdStamper } from "./message-ids.js";
import { createRpcPermissionAsker } from "./permission-asker.js";
import { PromptResults } from "./prompt-results.js";
import { createRpcUiBridge, type RpcUiBridge } from "./ui-bridge.js";


/** Builds another session (the composition root's); `attach` wires its extensions to a front door. */
export interface SessionFactory {
  create(params: CreateSessionParams, current: AgentSession): Promise<AgentSession>;
  attach?(session: AgentSession, bindings: ExtensionBindings): Promise<void>;
}

export interface RouterOptions {
  sink: FrameSink;
  deltaOnly?: boolean;
  emitTitle: boolean;
  /** `--heartbeat <ms>`: heartbeat frames from the start, for every session. */
  heartbeatMs?: number;
  /** pith's version, for get_integrations. */
  version: string;
  /** What the connection's `ready` offered to negotiate_protocol. */
  protocolVersions: readonly number[];
  newId(): string;
  log(message: string): void;
  factory?: SessionFactory;
  /** Writes a second response for the same id through the slot (late prompt failures). */
  lateError(slot: SessionSlot, command: string, id: string | number | undefined, err: unknown): void;
}

/** Thrown for a `sessionId` that names no open session; answered with `code: "unknown_session"`. */
export class UnknownSessionError extends PithError {
  readonly wireCode = "unknown_session";
  constructor(id: string) {
    super("not_found", `Unknown session: ${id} (create_session opens one; get_open_sessions lists them)`);
  }
}

/**
 * Thrown for a command addressed to a session that close_session ended or is ending, including
 * commands that were queued behind its work; answered with `code: "unknown_session"` as well.
 */
export class ClosedSessionError extends PithError {
  readonly wireCode = "unknown_session";
  constructor(id: string) {
    super("not_found", `Session ${id} is closed (close_session ended it; get_open_sessions lists the open ones)`);
  }
}

/** Closed ids remembered, so that a late command names the closed session rather than an unknown one. */
const MAX_CLOSED_IDS = 10_000;

/** One session as the front door holds it. */
export class SessionSlot {
  readonly framer: EventFramer;
  readonly ui: RpcUiBridge;
  readonly hostTools: HostToolBridge;
  readonly ctx: CommandContext;
  readonly extensionBindings: ExtensionBindings;
  readonly heartbeat: Heartbeat;
  /** `available_commands_update` when this session's extension commands change. */
  readonly commands: CommandAnnouncer;
  /** Commands of this session run one after another; other sessions never wait on it. */
  queue: Promise<void> = Promise.resolve();
  closed = false;
  private readonly unsubscribe: () => void;

  constructor(
    readonly id: string,
    readonly session: AgentSession,
    readonly isDefault: boolean,
    router: SessionRouter,
    o: RouterOptions,
  ) {
    const sink: FrameSink = isDefault ? o.sink : stampingSink(o.sink, id);
    this.framer = new EventFramer(sink, { deltaOnly: o.deltaOnly });
    const writeFrame = (f: RpcFrame) => this.framer.write(f);
    this.ui = createRpcUiBridge({ writeFrame, newId: o.newId, emitTitle: o.emitTitle });
    this.hostTools = createHostToolBridge({ writeFrame, newId: o.newId });
    this.commands = new CommandAnnouncer(() => session.slashCommands(), writeFrame);
    this.heartbeat = new Heartbeat({
      activity: () => session.activity(),
      waitingOnHost: () => this.hostTools.pendingCount > 0 || this.ui.pendingCount > 0,
      write: writeFrame,
    });
    if (o.heartbeatMs) this.heartbeat.set(o.heartbeatMs);
    this.ctx = {
      session,
      framer: this.framer,
      hostTools: this.hostTools,
      promptResults: new PromptResults({ write: writeFrame, isSettled: () => session.isSettled }),
      heartbeat: this.heartbeat,
      version: o.version,
      protocolVersions: o.protocolVersions,
      lateError: (command, reqId, err) => o.lateError(this, command, reqId, err),
      sessions: router,
      slotId: id,
    };
    this.extensionBindings = {
      ui: this.ui,
      hasUI: true,
      onError: (info) => {
        o.log(`Extension error (${info.extensionPath}): ${info.error}`);
        this.framer.write({ type: "extension_error", ...info });
      },
      onPromptError: (command, error) => this.framer.write({ type: "response", command, success: false, error }),
    };
    const ids = new MessageIdStamper();
    this.unsubscribe = session.subscribe((event) => this.framer.push(ids.stamp(event)));
    // Approval dialogs of the permission rules go to this host, extensions or not.
    session.setPermissionAsker(createRpcPermissionAsker(this.ui));
  }

  /** Stops listening; pending dialogs and host tool calls fail. */
  detach(): void {
    this.heartbeat.stop();
    this.ui.cancelAll();
    this.hostTools.rejectAll("The session was closed");
    this.framer.flush();
    this.unsubscribe();
  }
}

function stampingSink(sink: FrameSink, sessionId: string): FrameSink {
  return {
    // every frame may carry `sessionId`; the union of frame types does not list it on each
    write: (frame, final) => sink.write({ ...frame, sessionId } as unknown as RpcFrame, final),
    get pendingBytes() {
      return sink.pendingBytes;
    },
  };
}

export class SessionRouter implements SessionsPort {
  readonly defaultSlot: SessionSlot;
  private readonly slots = new Map<string, SessionSlot>();
  private readonly closedIds = new Set<string>();

  constructor(
    session: AgentSession,
    private readonly o: RouterOptions,
  ) {
    this.defaultSlot = new SessionSlot(session.id, session, true, this, o);
    this.slots.set(this.defaultSlot.id, this.defaultSlot);
  }

  /** The slot a command addresses: its `sessionId`, else the default session. */
  slotFor(sessionId: unknown): SessionSlot {
    if (sessionId === undefined) return this.defaultSlot;
    const slot = typeof sessionId === "string" ? this.slots.get(sessionId) : undefined;
    if (slot?.closed || (!slot && this.closedIds.has(sessionId as string))) throw new ClosedSessionError(String(sessionId));
    if (!slot) throw new UnknownSessionError(String(sessionId));
    return slot;
  }

  all(): SessionSlot[] {
    return [...this.slots.values()];
  }

  /** `create_session`: a new independent session; resolves with its handle. */
  async create(params: CreateSessionParams, from: AgentSession): Promise<CreateSessionResult> {
    const factory = this.o.factory;
    if (!factory) throw new PithError("unavailable", "This front door cannot create sessions");
    const session = await factory.create(params, from);
    let id = session.id;
    for (let n = 2; this.slots.has(id); n++) id = `${session.id}-${n}`;
    const slot = new SessionSlot(id, session, false, this, this.o);
    this.slots.set(id, slot);
    try {
      await factory.attach?.(session, slot.extensionBindings);
    } catch (err) {
      await this.close(id);
      throw err;
    }
    const file = session.sessionFile;
    return file === undefined ? { sessionId: id } : { sessionId: id, sessionFile: file };
  }

  /** `close_session`: aborts its work, flushes and releases its file; the default cannot be closed. */
  async close(id: string): Promise<void> {
    const slot = this.slotFor(id);
    if (slot.isDefault) throw new PithError("invalid_request", "The process's first session cannot be closed (end stdin to exit)");
    await this.end(slot);
  }

  /** Every session, the default one too (the host's connection is gone); work queued behind them fails. */
  async closeAll(): Promise<void> {
    await Promise.all(this.all().map((slot) => this.end(slot)));
  }

  private async end(slot: SessionSlot): Promise<void> {
    slot.closed = true;
    this.slots.delete(slot.id);
    if (this.closedIds.size >= MAX_CLOSED_IDS) this.closedIds.delete(this.closedIds.values().next().value as string);
    this.closedIds.add(slot.id);
    await slot.session.handle({ type: "abort_bash" });
    await slot.session.abort();
    slot.detach();
    await slot.session.shutdownExtensions();
    await slot.session.close();
  }

  /** `get_open_sessions`. */
  list(): OpenSessionInfo[] {
    return this.all().map((slot) => {
      const s = slot.session;
      const info: OpenSessionInfo = { sessionId: slot.id, isDefault: slot.isDefault, cwd: s.cwd, isStreaming: s.isStreaming };
      const file = s.sessionFile;
      if (file !== undefined) info.sessionFile = file;
      const model = s.model;
      if (model) info.model = { provider: model.provider, id: model.id };
      return info;
    });
  }

  /** Routes a dialog answer or host tool frame to the session that asked (ids are unique). */
  forEachSlot(fn: (slot: SessionSlot) => boolean | void): void {
    for (const slot of this.slots.values()) if (fn(slot) === true) return;
  }
}
