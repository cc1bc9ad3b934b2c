// One host's connection: its WebSocket transport, its front door (built by the composition root,
// with its own first session), and what ends it. Whatever ends it (the peer closing, a peer that
// stops reading, the server draining), the connection's runs are aborted and its sessions flushed,
// closed and unlocked before it counts as gone.
import type { RpcServer } from "../rpc/server.js";
import { createWebSocketTransport, type Transport, type WebSocketLike } from "../transport/index.js";
import { CLOSE } from "./close-codes.js";

/** What `pith serve` needs of the WebSocket: the transport's part plus terminate and errors. */
export interface ServedSocket extends WebSocketLike {
  terminate(): void;
  on(event: "message", listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: "close", listener: (code: number, reason: Buffer) => void): unknown;
  on(event: "error", listener: (err: Error) => void): unknown;
}

export interface ConnectionLimits {
  /** Largest inbound message taken as a frame (larger ones are answered with an error frame). */
  maxMessageBytes: number;
  /** Outbound bytes a peer may leave unread before it is disconnected. */
  maxOutboundBytes: number;
  /** How long frames may wait unsent, the peer reading none of them, before it is disconnected. */
  sendTimeoutMs: number;
}

/** Builds a connection's front door: its first session, `ready` written, extensions attached. */
export type OpenFrontDoor = (transport: Transport) => Promise<RpcServer>;

/** A peer that does not take the close frame is cut after this long. */
const CLOSE_GRACE_MS = 2000;

export class Connection {
  /** Resolves once the connection is closed and its sessions released. */
  readonly ended: Promise<void>;
  private rpc: RpcServer | undefined;
  private socketClosed = false;
  private endedResolve!: () => void;
  private ending: Promise<void> | undefined;

  constructor(
    private readonly socket: ServedSocket,
    limits: ConnectionLimits,
    private readonly log: (message: string) => void,
  ) {
    this.ended = new Promise((resolve) => (this.endedResolve = resolve));
    this.transport = createWebSocketTransport(socket, {
      maxMessageBytes: limits.maxMessageBytes,
      maxBufferedBytes: limits.maxOutboundBytes,
      stallMs: limits.sendTimeoutMs,
      onOverflow: (bytes, why) => {
        const bound = why === "bytes" ? `bound ${limits.maxOutboundBytes} bytes` : `read nothing for ${limits.sendTimeoutMs} ms`;
        this.log(`serve: a client left ${bytes} bytes unread (${bound}); disconnecting it`);
        void this.end(CLOSE.slowConsumer, "outbound buffer full: the client stopped reading");
      },
      onWriteError: (err) => this.log(`serve: send failed: ${err.message}`),
    });
    socket.on("error", (err) => this.log(`serve: connection error: ${err.message}`));
    socket.on("close", () => {
      this.socketClosed = true;
      void this.end(undefined, "");
    });
  }

  readonly transport: ReturnType<typeof createWebSocketTransport>;

  /** Builds the front door and serves until the peer goes (or an extension shuts its session down). */
  async run(open: OpenFrontDoor): Promise<void> {
    try {
      this.rpc = await open(this.transport);
    } catch (err) {
      this.log(`serve: could not start a session for a connection: ${(err as Error).message}`);
      await this.end(CLOSE.internalError, "could not start a session");
      return;
    }
    if (this.ending) {
      await this.rpc.disconnect();
      return;
    }
    await this.rpc.serve();
    await this.end(CLOSE.normal, "");
  }

  /** Resolves once no command is waiting and no run is going on in any of its sessions. */
  async idle(): Promise<void> {
    await this.rpc?.idle();
  }

  /** Aborts its runs, releases its sessions, closes the socket with `code` (undefined: already closed). */
  end(code: number | undefined, reason: string): Promise<void> {
    this.ending ??= this.finish(code, reason);
    return this.ending;
  }

  private async finish(code: number | undefined, reason: string): Promise<void> {
    try {
      if (code !== undefined && !this.socketClosed) {
        // what was produced before the close (a run's last frames, its prompt_result) goes out first,
        // within the close grace: a peer that stopped reading does not hold the close up
        await Promise.race([this.rpc?.flushOutput(), new Promise((r) => setTimeout(r, CLOSE_GRACE_MS).unref())]);
        if (!this.socketClosed) {
          this.socket.close(code, reason);
          setTimeout(() => this.socket.terminate(), CLOSE_GRACE_MS).unref();
        }
      }
      await this.rpc?.disconnect();
    } catch (err) {
      this.log(`serve: closing a connection's sessions failed: ${(err as Error).message}`);
    } finally {
      this.endedResolve();
    }
  }
}
