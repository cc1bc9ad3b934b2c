// The only module that touches the MCP SDK's client side. It is reached through `import()`
// (see load-sdk.ts), so pith pays for the SDK only once a server is configured. It opens one
// connection (stdio in its own process group, streamable HTTP or HTTP+SSE), and hides the SDK
// behind `OpenClient`: paginated tool listing, tool calls whose failures are classified as an
// `McpCallFailure`, list_changed and close notifications as callbacks.
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport, SseError } from "@modelcontextprotocol/sdk/client/sse.js";
import { DEFAULT_INHERITED_ENV_VARS } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport, StreamableHTTPError } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, LoggingMessageNotificationSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import path from "node:path";
import { errorMessage } from "../shared/errors.js";
import { McpCallFailure } from "./call-failure.js";
import type { McpCallResult } from "./map-result.js";
import { OrderedTransport } from "./ordered-transport.js";
import { GroupStdioTransport } from "./stdio-transport.js";
import type { McpServerConfig, McpToolInfo } from "./types.js";

export interface OpenOptions {
  name: string;
  config: McpServerConfig;
  /** Default working directory of a stdio server. */
  cwd: string;
  /** pith's environment: a stdio server inherits only a safe subset (plus its own `env`). */
  env: Readonly<Record<string, string | undefined>>;
  /** Rewrites a stdio server's command line before it is spawned (the sandbox). */
  wrapCommand?: WrapCommand;
  startupTimeoutMs: number;
  killGraceMs: number;
  clientInfo: { name: string; version: string };
  /** Aborting it abandons the connection attempt. */
  signal: AbortSignal;
  /** One line for the log (connection errors, the server's log notifications). */
  log: (line: string) => void;
  /** A stdio server's stderr, chunk by chunk. */
  onStderr: (text: string) => void;
  /** The connection ended on its own (process exit, closed stream); `why` says how. */
  onClosed: (why: string) => void;
  /** The server sent notifications/tools/list_changed. */
  onToolsChanged: () => void;
}

/** A program and its arguments rewritten to run elsewhere (inside the sandbox), starting in `cwd`. */
export type WrapCommand = (line: { file: string; args: string[] }, cwd: string) => { file: string; args: string[] };

export interface CallOptions {
  signal: AbortSignal;
  timeoutMs: number;
  onProgress: (p: { progress: number; total?: number; message?: string }) => void;
}

export interface OpenClient {
  listTools(timeoutMs: number): Promise<McpToolInfo[]>;
  /** Resolves to the server's result (maybe `isError`); rejects with an McpCallFailure. */
  callTool(name: string, args: Record<string, unknown>, opts: CallOptions): Promise<McpCallResult>;
  /** Ends the connection (and the stdio server's process group). Never rejects. */
  close(): Promise<void>;
  /** The stdio server's pid (= its process group id). */
  readonly pid?: number;
}

/** Environment variables a stdio server inherits from pith besides its own `env` (no API keys). */
export const INHERITED_ENV = [...DEFAULT_INHERITED_ENV_VARS, "LANG", "LC_ALL", "LC_CTYPE", "TMPDIR", "TZ"];

const MAX_TOOL_PAGES = 100;

export async function openClient(o: OpenOptions): Promise<OpenClient> {
  const client = new Client(o.clientInfo, {
    capabilities: {},
    listChanged: { tools: { autoRefresh: false, debounceMs: 50, onChanged: () => o.onToolsChanged() } },
  });
  const transport = createTransport(o);
  const stdio = transport instanceof GroupStdioTransport ? transport : undefined;
  let open = false;
  client.onerror = (err) => o.log(`error: ${err.message}`);
  client.onclose = () => open && o.onClosed(stdio?.describeExit() ?? "the connection closed");
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => o.log(`[${n.params.level}] ${typeof n.params.data === "string" ? n.params.data : JSON.stringify(n.params.data)}`));
  const abandon = () => void closeQuietly(client, o.log);
  o.signal.addEventListener("abort", abandon, { once: true });
  try {
    await client.connect(new OrderedTransport(transport), { signal: o.signal, timeout: o.startupTimeoutMs });
    open = true;
  } catch (err) {
    await closeQuietly(client, o.log);
    if (o.signal.aborted) throw new Error(errorMessage(o.signal.reason));
    const exit = stdio?.describeExit();
    throw new Error(exit ? `the server ${exit}` : connectionError(err));
  } finally {
    o.signal.removeEventListener("abort", abandon);
  }
  return {
    pid: stdio?.pid,
    listTools: (timeoutMs) => listAllTools(client, timeoutMs),
    callTool: (name, args, opts) => callTool(client, name, args, opts, () => stdio?.describeExit()),
    close: () => closeQuietly(client, o.log),
  };
}

function createTransport(o: OpenOptions): Transport {
  const c = o.config;
  if (c.type === "stdio") {
    const inherited = Object.fromEntries(INHERITED_ENV.flatMap((k) => (o.env[k] !== undefined && !o.env[k]?.startsWith("()") ? [[k, o.env[k] as string]] : [])));
    return new GroupStdioTransport({
      command: c.command,
      args: c.args,
      env: { ...inherited, ...c.env },
      cwd: path.resolve(o.cwd, c.cwd ?? "."),
      wrap: o.wrapCommand,
      killGraceMs: o.killGraceMs,
      onStderr: o.onStderr,
      onSpawn: (pid) => o.log(`pith: started process ${pid}`),
    });
  }
  const opts = { requestInit: { headers: c.headers } };
  return c.type === "http" ? new StreamableHTTPClientTransport(new URL(c.url), opts) : new SSEClientTransport(new URL(c.url), opts);
}

async function listAllTools(client: Client, timeoutMs: number): Promise<McpToolInfo[]> {
  const out: McpToolInfo[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_TOOL_PAGES; page++) {
    const r = await client.listTools(cursor ? { cursor } : undefined, { timeout: timeoutMs, maxTotalTimeout: timeoutMs });
    for (const t of r.tools) {
      const info: McpToolInfo = { name: t.name, title: t.title ?? t.annotations?.title, description: t.description, inputSchema: t.inputSchema as Record<string, unknown> };
      if (t.annotations?.readOnlyHint === true) info.readOnly = true;
      out.push(info);
    }
    cursor = r.nextCursor;
    if (!cursor) break;
  }
  return out;
}

async function callTool(client: Client, name: string, args: Record<string, unknown>, opts: CallOptions, exit: () => string | undefined): Promise<McpCallResult> {
  try {
    return (await client.callTool({ name, arguments: args }, undefined, {
      signal: opts.signal,
      timeout: opts.timeoutMs,
      maxTotalTimeout: opts.timeoutMs,
      onprogress: (p) => opts.onProgress({ progress: p.progress, total: p.total, message: p.message }),
    })) as McpCallResult;
  } catch (err) {
    throw classify(err, opts.signal, exit);
  }
}

function classify(err: unknown, signal: AbortSignal, exit: () => string | undefined): McpCallFailure {
  if (signal.aborted) return new McpCallFailure("aborted", "aborted");
  if (err instanceof McpError) {
    if (err.code === ErrorCode.RequestTimeout) return new McpCallFailure("timeout", err.message);
    if (err.code === ErrorCode.ConnectionClosed) return new McpCallFailure("closed", exit() ?? "the connection closed");
    return new McpCallFailure("remote", err.message);
  }
  const transportLevel =
    err instanceof TypeError || err instanceof StreamableHTTPError || err instanceof SseError || err instanceof UnauthorizedError || errorMessage(err) === "Not connected";
  if (transportLevel) return new McpCallFailure("closed", exit() ?? connectionError(err));
  return new McpCallFailure("remote", errorMessage(err));
}

/** `fetch failed` says little; its cause (ECONNREFUSED ...) or the HTTP status says what happened. */
function connectionError(err: unknown): string {
  const { cause, code } = (err ?? {}) as { cause?: unknown; code?: unknown };
  const status = (err instanceof StreamableHTTPError || err instanceof SseError) && typeof code === "number" ? `HTTP ${code}: ` : "";
  return `${status}${errorMessage(err)}${cause ? `: ${errorMessage(cause)}` : ""}`;
}

async function closeQuietly(client: Client, log: (text: string) => void): Promise<void> {
  try {
    await client.close();
  } catch (err) {
    log(`error while closing: ${errorMessage(err)}`);
  }
}
