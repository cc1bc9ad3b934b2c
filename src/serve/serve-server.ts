// `pith serve`: an HTTP server that answers health probes and upgrades authenticated requests to
// WebSockets, each one a host with its own sessions. Upgrades are checked before any frame:
// Origin (403), token (401), capacity and draining (503); refusals are logged without the token.
// Draining stops accepting (`/readyz` answers 503), lets running work finish up to a deadline,
// then ends every connection.
import { chmodSync, lstatSync, unlinkSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import type { Duplex } from "node:stream";
import type { WebSocketServer } from "ws";
import type { TokenCheck } from "./auth.js";
import { refusal } from "./auth.js";
import { CLOSE } from "./close-codes.js";
import { Connection, type ConnectionLimits, type OpenFrontDoor, type ServedSocket } from "./connection.js";
import type { ListenAddress } from "./listen-address.js";

export interface ServeOptions extends ConnectionLimits {
  address: ListenAddress;
  /** Absent only with `--insecure-no-auth`. */
  auth: TokenCheck | undefined;
  allowedOrigins: readonly string[];
  maxConnections: number;
  open: OpenFrontDoor;
  log(message: string): void;
}

/** A message over this many times the frame bound is not even read: `ws` closes with 1009. */
const HARD_PAYLOAD_FACTOR = 2;

export class ServeServer {
  private readonly http: Server;
  private wss: WebSocketServer | undefined;
  private readonly connections = new Set<Connection>();
  private accepting = true;

  constructor(private readonly o: ServeOptions) {
    this.http = createServer((req, res) => this.request(req, res));
    this.http.on("upgrade", (req, socket, head) => this.upgrade(req, socket, head));
    this.http.on("clientError", (_err, socket: Socket) => socket.destroy());
  }

  /** Listens; resolves with the TCP port (0 for a Unix socket). */
  async listen(): Promise<number> {
    // loaded here: the WebSocket library stays out of every other mode's startup
    const { WebSocketServer } = await import("ws");
    this.wss = new WebSocketServer({ noServer: true, maxPayload: this.o.maxMessageBytes * HARD_PAYLOAD_FACTOR, perMessageDeflate: false });
    const a = this.o.address;
    if (a.kind === "unix") removeStaleSocket(a.path);
    await new Promise<void>((resolve, reject) => {
      this.http.once("error", reject);
      if (a.kind === "unix") this.http.listen(a.path, resolve);
      else this.http.listen(a.port, a.host, resolve);
    });
    // only this user may connect to the socket file
    if (a.kind === "unix") chmodSync(a.path, 0o600);
    this.http.on("error", (err) => this.o.log(`serve: ${err.message}`));
    return a.kind === "unix" ? 0 : (this.http.address() as AddressInfo).port;
  }

  get connectionCount(): number {
    return this.connections.size;
  }

  /**
   * Stops accepting, waits up to `timeoutMs` for every connection's work to finish, then ends
   * every connection (runs still going are aborted, sessions flushed and unlocked) and closes.
   */
  async drain(timeoutMs: number): Promise<void> {
    this.accepting = false;
    const all = () => [...this.connections];
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
    await Promise.race([Promise.all(all().map((c) => c.idle())), deadline]);
    clearTimeout(timer);
    await Promise.all(all().map((c) => c.end(CLOSE.goingAway, "server shutting down")));
    this.wss?.close();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  private request(req: IncomingMessage, res: ServerResponse): void {
    const path = new URL(req.url ?? "/", "http://pith").pathname;
    if (req.method === "GET" && path === "/healthz") return plain(res, 200, "ok");
    if (req.method === "GET" && path === "/readyz") {
      if (!this.accepting) return plain(res, 503, "draining");
      if (this.connections.size >= this.o.maxConnections) return plain(res, 503, "at --max-connections");
      return plain(res, 200, "ready");
    }
    plain(res, path === "/" ? 426 : 404, path === "/" ? "upgrade to a WebSocket" : "not found");
  }

  private upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", (err) => this.o.log(`serve: upgrade socket: ${err.message}`));
    const refused = refusal(req, this.o.auth, this.o.allowedOrigins);
    if (refused) return this.refuse(req, socket, refused.status, refused.reason);
    if (!this.accepting) return this.refuse(req, socket, 503, "draining");
    if (this.connections.size >= this.o.maxConnections) return this.refuse(req, socket, 503, `at --max-connections (${this.o.maxConnections})`);
    const wss = this.wss;
    if (!wss) return this.refuse(req, socket, 503, "not listening yet");
    wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws as unknown as ServedSocket));
  }

  private accept(ws: ServedSocket): void {
    const conn = new Connection(ws, this.o, this.o.log);
    this.connections.add(conn);
    void conn.ended.then(() => {
      this.connections.delete(conn);
      this.o.log(`serve: a connection closed, its sessions released (${this.connections.size} open)`);
    });
    if (!this.accepting) {
      void conn.end(CLOSE.goingAway, "server shutting down");
      return;
    }
    void conn.run(this.o.open);
  }

  /** Answers a refused upgrade with its HTTP status before any frame; the log names no token. */
  private refuse(req: IncomingMessage, socket: Duplex, status: 401 | 403 | 503, reason: string): void {
    this.o.log(`serve: refused a connection from ${req.socket.remoteAddress ?? "a unix socket"}: ${status} ${reason}`);
    const text = STATUS_TEXT[status];
    const extra = status === 401 ? 'WWW-Authenticate: Bearer realm="pith"\r\n' : "";
    socket.end(`HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(reason) + 1}\r\n${extra}Connection: close\r\n\r\n${reason}\n`);
  }
}

const STATUS_TEXT = { 401: "Unauthorized", 403: "Forbidden", 503: "Service Unavailable" } as const;

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { "Content-Type": "text/plain", "Cache-Control": "no-store" });
  res.end(text + "\n");
}

/** A socket file left by a process that is gone would make listen fail with EADDRINUSE. */
function removeStaleSocket(path: string): void {
  if (lstatSync(path, { throwIfNoEntry: false })?.isSocket()) unlinkSync(path);
}
