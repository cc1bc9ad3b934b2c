// Helpers for the MCP layer's tests: the real fixture servers of test/support/mcp/, a manager
// with a captured log, and running a tool the way the agent does (run-tool.ts).
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AgentToolResult } from "../../src/shared/types.js";
import { runTool } from "../../src/tools/run-tool.js";
import type { ToolOutcome } from "../../src/tools/types.js";
import { McpManager, type McpManagerOptions } from "../../src/mcp/manager.js";
import type { McpServerConfig, McpServerPlan, McpSource, McpStdioConfig } from "../../src/mcp/types.js";

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../test/support/mcp");

/** The stdio fixture server named `name`, with stdio-server.mjs flags. */
export function stdioFixture(name: string, ...flags: string[]): McpStdioConfig {
  return { type: "stdio", command: process.execPath, args: [path.join(FIXTURES, "stdio-server.mjs"), "--name", name, ...flags], env: {} };
}

export function plan(name: string, config: McpServerConfig, source: McpSource = "global"): McpServerPlan {
  return { name, source, config };
}

export interface HttpFixture {
  port: number;
  pid: number;
  url(pathname: string): string;
  stop(): Promise<void>;
}

/** Starts http-server.mjs (streamable HTTP at /mcp, HTTP+SSE at /sse) on 127.0.0.1. */
export async function startHttpFixture(...flags: string[]): Promise<HttpFixture> {
  const child = spawn(process.execPath, [path.join(FIXTURES, "http-server.mjs"), ...flags], { stdio: ["pipe", "pipe", "ignore"] });
  const [line] = (await once(child.stdout, "data")) as [Buffer];
  const { port, pid } = JSON.parse(line.toString("utf8").split("\n")[0]) as { port: number; pid: number };
  return {
    port,
    pid,
    url: (pathname) => `http://127.0.0.1:${port}${pathname}`,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGKILL");
      await once(child, "exit");
    },
  };
}

/** A TCP port on 127.0.0.1 nothing listens on (it was free a moment ago). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, "close");
  return port;
}

/** Whether a process exists (`process.kill(pid, 0)`); a killed one waiting to be reaped (zombie) does not count. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw err;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ENOENT"; // no /proc entry: gone (or no /proc: trust kill)
  }
}

export interface TestManager {
  manager: McpManager;
  /** Every log line, as `[server] line`. */
  logs: string[];
}

export function makeManager(over: Partial<McpManagerOptions> = {}): TestManager {
  const logs: string[] = [];
  const manager = new McpManager({
    cwd: process.cwd(),
    env: { PATH: process.env.PATH, HOME: process.env.HOME },
    timeouts: { killGraceMs: 300 },
    log: (server, line) => logs.push(`[${server}] ${line}`),
    ...over,
  });
  return { manager, logs };
}

export interface CallOutcome extends ToolOutcome {
  updates: AgentToolResult[];
  text: string;
}

/** Runs the manager's tool `name` through run-tool (validation, errors → isError results). */
export async function callTool(manager: McpManager, name: string, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallOutcome> {
  const tool = manager.tools().find((t) => t.name === name);
  if (!tool) throw new Error(`no tool ${name}; have ${manager.tools().map((t) => t.name).join(", ")}`);
  const updates: AgentToolResult[] = [];
  const outcome = await runTool(tool, args, {
    cwd: process.cwd(),
    toolCallId: "call_1",
    signal: signal ?? new AbortController().signal,
    onUpdate: (u) => updates.push(u),
  });
  const text = outcome.result.content.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`)).join("\n");
  return { ...outcome, updates, text };
}

/** Calls the tool `name` (one that never answers), aborts it after 200 ms; the outcome and how long the abort took. */
export async function abortAfterStart(manager: McpManager, name: string): Promise<{ outcome: CallOutcome; abortMs: number }> {
  const ac = new AbortController();
  const call = callTool(manager, name, {}, ac.signal);
  await new Promise((r) => setTimeout(r, 200));
  const before = Date.now();
  ac.abort();
  const outcome = await call;
  return { outcome, abortMs: Date.now() - before };
}

/** Waits until `check` holds (polling), failing after `ms`. */
export async function until(check: () => boolean, ms = 5000, what = "condition"): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
