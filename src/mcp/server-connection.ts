// One configured MCP server over its whole life: connecting in the background, its last known
// tools, tool calls, list_changed refreshes, and recovery. A server that crashes or cannot be
// reached keeps its last known tools; calling one restarts the server first, at most once per
// `restartIntervalMs` (a minute), and otherwise answers with an error that says why. Nothing
// here throws except `call`, whose errors become `isError` tool results; nothing waits beyond
// the startup and tool timeouts, and an aborted call returns at once.
import { errorMessage } from "../shared/errors.js";
import type { AgentToolResult } from "../shared/types.js";
import type { ToolContext } from "../tools/types.js";
import { McpCallFailure } from "./call-failure.js";
import { errorText, mapToolResult } from "./map-result.js";
import type { OpenClient, OpenOptions, WrapCommand } from "./open-client.js";
import { followSignal, raceAbort } from "./race-abort.js";
import type { McpServerPlan, McpServerStatusKind, McpTimeouts, McpToolInfo } from "./types.js";

export interface ConnectionDeps {
  open: (o: OpenOptions) => Promise<OpenClient>;
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The sandbox's wrapper for stdio servers; absent: they run unsandboxed. */
  wrapCommand?: WrapCommand;
  timeouts: McpTimeouts;
  clientInfo: { name: string; version: string };
  /** One line of log for this server (events and its stderr, line by line). */
  log: (line: string) => void;
  acceptsImages: () => boolean;
  now: () => number;
  /** Status or tool list changed. */
  onChange: () => void;
}

const ABORTED = "MCP tool call aborted";

export class ServerConnection {
  status: McpServerStatusKind;
  error?: string;
  /** The tools the server listed last (kept while it is down, so a call can restart it). */
  tools: McpToolInfo[] = [];
  private client?: OpenClient;
  private connecting?: Promise<void>;
  private connectAbort?: AbortController;
  private generation = 0;
  private closed = false;
  private lastRestartAt = Number.NEGATIVE_INFINITY;
  private refreshing = false;
  private refreshAgain = false;
  private stderrPartial = "";

  constructor(
    readonly plan: McpServerPlan,
    private readonly deps: ConnectionDeps,
  ) {
    this.status = plan.config ? "connecting" : plan.disabled !== undefined ? "disabled" : "failed";
    this.error = plan.config ? undefined : (plan.disabled ?? plan.invalid);
  }

  get name(): string {
    return this.plan.name;
  }

  /** Begins connecting in the background (servers without a usable config stay as they are). */
  start(): void {
    if (this.plan.config && !this.connecting && !this.client && !this.closed) void this.connect();
  }

  /** Reconnects a failed server in the background if a restart is due (shares the once-a-minute budget with calls). */
  retryIfFailed(): void {
    if (this.status !== "failed" || !this.plan.config || this.closed || this.connecting) return;
    if (this.deps.now() < this.lastRestartAt + this.deps.timeouts.restartIntervalMs) return;
    this.lastRestartAt = this.deps.now();
    this.deps.log("pith: retrying the connection");
    void this.connect();
  }

  /** Settles when the server is no longer starting (never rejects; bounded by the startup timeout). */
  ready(): Promise<void> {
    return this.connecting ?? Promise.resolve();
  }

  /** The pid (= process group) of a running stdio server. */
  get pid(): number | undefined {
    return this.client?.pid;
  }

  /** Runs `tool`; resolves to pith content or throws an Error whose message the model sees. */
  async call(tool: string, args: Record<string, unknown>, ctx: ToolContext): Promise<AgentToolResult> {
    const client = await this.usableClient(ctx.signal);
    const timeoutMs = this.deps.timeouts.toolTimeoutMs;
    const abort = followSignal(ctx.signal);
    let result;
    try {
      result = await client.callTool(tool, args, {
        signal: abort.signal,
        timeoutMs,
        onProgress: (p) => ctx.onUpdate(progressUpdate(p, this.name, tool)),
      });
    } catch (err) {
      throw this.callError(err, tool, client);
    } finally {
      abort.dispose();
    }
    if (result.isError) throw new Error(errorText(result, { server: this.name, tool }));
    return mapToolResult(result, { server: this.name, tool, acceptsImages: this.deps.acceptsImages() });
  }

  /** Disconnects for good: stops a connection attempt, closes the client, ends the stdio process group. */
  async close(): Promise<void> {
    this.closed = true;
    this.generation++;
    this.connectAbort?.abort(new Error("shut down"));
    const client = this.client;
    this.client = undefined;
    await Promise.all([client?.close(), this.connecting]);
  }

  private async usableClient(signal: AbortSignal): Promise<OpenClient> {
    if (this.connecting) await raceAbort(this.connecting, signal, ABORTED);
    if (this.client) return this.client;
    if (this.closed) throw new Error(`MCP server "${this.name}" has been shut down`);
    const wait = this.lastRestartAt + this.deps.timeouts.restartIntervalMs - this.deps.now();
    if (wait > 0) {
      throw new Error(
        `MCP server "${this.name}" is unavailable: ${this.error ?? "not connected"}. ` +
          `pith restarts a server at most once every ${seconds(this.deps.timeouts.restartIntervalMs)}; the next attempt is possible in ${seconds(wait)}.`,
      );
    }
    this.lastRestartAt = this.deps.now();
    this.deps.log("pith: restarting the server for a tool call");
    await raceAbort(this.connect(), signal, ABORTED);
    if (!this.client) throw new Error(`MCP server "${this.name}" could not be restarted: ${this.error ?? "unknown error"}`);
    return this.client;
  }

  private callError(err: unknown, tool: string, client: OpenClient): Error {
    const f = err instanceof McpCallFailure ? err : new McpCallFailure("remote", errorMessage(err));
    switch (f.kind) {
      case "aborted":
        return new Error(`${ABORTED} (cancellation sent to MCP server "${this.name}")`);
      case "timeout":
        return new Error(`MCP tool "${tool}" on server "${this.name}" did not answer within ${seconds(this.deps.timeouts.toolTimeoutMs)}; the call was cancelled`);
      case "closed":
        this.lost(client, f.message);
        return new Error(`MCP server "${this.name}" failed during the call to "${tool}": ${f.message}. It will be restarted on the next call.`);
      case "remote":
        return new Error(`MCP server "${this.name}" could not run "${tool}": ${f.message}`);
    }
  }

  private connect(): Promise<void> {
    const config = this.plan.config;
    if (!config) return Promise.resolve();
    const gen = ++this.generation;
    const abort = new AbortController();
    this.connectAbort = abort;
    const ms = this.deps.timeouts.startupTimeoutMs;
    const timer = setTimeout(() => abort.abort(new Error(`did not start within ${seconds(ms)}`)), ms);
    this.setStatus("connecting");
    this.deps.log(`pith: connecting (${config.type})`);
    const attempt = this.attempt(gen, abort.signal).finally(() => {
      clearTimeout(timer);
      if (this.connecting === attempt) this.connecting = undefined;
    });
    this.connecting = attempt;
    return attempt;
  }

  private async attempt(gen: number, signal: AbortSignal): Promise<void> {
    let client: OpenClient | undefined;
    try {
      client = await this.deps.open(this.openOptions(gen, signal));
      const tools = await raceAbort(client.listTools(this.deps.timeouts.startupTimeoutMs), signal, "aborted");
      if (gen !== this.generation) {
        await client.close();
        return;
      }
      this.client = client;
      this.tools = tools;
      this.setStatus("connected");
      this.deps.log(`pith: connected, ${tools.length} tool${tools.length === 1 ? "" : "s"}`);
    } catch (err) {
      await client?.close();
      if (gen !== this.generation) return;
      const why = signal.aborted ? errorMessage(signal.reason) : errorMessage(err);
      this.setStatus("failed", why);
      this.deps.log(`pith: failed: ${why}`);
    }
  }

  private openOptions(gen: number, signal: AbortSignal): OpenOptions {
    const t = this.deps.timeouts;
    return {
      name: this.name,
      config: this.plan.config as NonNullable<McpServerPlan["config"]>,
      cwd: this.deps.cwd,
      env: this.deps.env,
      wrapCommand: this.deps.wrapCommand,
      startupTimeoutMs: t.startupTimeoutMs,
      killGraceMs: t.killGraceMs,
      clientInfo: this.deps.clientInfo,
      signal,
      log: (line) => this.deps.log(line),
      onStderr: (text) => this.logStderr(text),
      onClosed: (why) => {
        if (gen === this.generation && this.client) this.lost(this.client, why);
      },
      onToolsChanged: () => this.refresh(gen),
    };
  }

  /** The connection broke under a live client: forget it (a call will restart it). */
  private lost(client: OpenClient, why: string): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.setStatus("failed", why);
    this.deps.log(`pith: connection lost: ${why}`);
    void client.close();
  }

  private refresh(gen: number): void {
    if (gen !== this.generation) return;
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    this.refreshing = true;
    void this.refreshLoop(gen).finally(() => (this.refreshing = false));
  }

  private async refreshLoop(gen: number): Promise<void> {
    do {
      this.refreshAgain = false;
      const client = this.client;
      if (!client || gen !== this.generation) return;
      try {
        const tools = await client.listTools(this.deps.timeouts.startupTimeoutMs);
        if (gen !== this.generation || this.client !== client) return;
        this.tools = tools;
        this.deps.log(`pith: tool list changed, ${tools.length} tools`);
        this.deps.onChange();
      } catch (err) {
        this.deps.log(`pith: could not refresh the tool list: ${errorMessage(err)}`);
      }
    } while (this.refreshAgain);
  }

  private setStatus(status: McpServerStatusKind, error?: string): void {
    this.status = status;
    this.error = error;
    this.deps.onChange();
  }

  /** A stdio server's stderr goes to the log one line at a time. */
  private logStderr(text: string): void {
    const lines = (this.stderrPartial + text).split("\n");
    this.stderrPartial = lines.pop() ?? "";
    for (const line of lines) if (line.trim()) this.deps.log(line.replace(/\r$/, ""));
    if (this.stderrPartial.length > 8192) {
      this.deps.log(this.stderrPartial);
      this.stderrPartial = "";
    }
  }
}

function progressUpdate(p: { progress: number; total?: number; message?: string }, server: string, tool: string): AgentToolResult {
  const counter = p.total !== undefined ? `${p.progress}/${p.total}` : String(p.progress);
  return { content: [{ type: "text", text: p.message ? `${p.message} (${counter})` : counter }], details: { server, tool, progress: p.progress, total: p.total } };
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
