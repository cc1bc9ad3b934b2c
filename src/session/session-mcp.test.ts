// The session's MCP part in-process: a real McpManager over a fake connection (no SDK, no
// process), a scripted model. The first prompt waits for a server still starting, its tools
// join the model's list, a call reaches the server, and closing the session ends the servers.
import { describe, expect, it, vi } from "vitest";
import { sessionWiring } from "./session-wiring.js";
import { scriptedStream, type Reply } from "../../test/support/agent.js";
import { McpManager } from "../mcp/index.js";
import type { OpenClient } from "../mcp/open-client.js";
import { PithError } from "../shared/errors.js";
import type { McpWiring } from "./index.js";
import { testSession } from "../../test/support/session.js";

const text = (t: string): Reply => ({ steps: [{ text: t }] });
const callTool = (id: string, name: string, args: Record<string, unknown> = {}): Reply => ({ steps: [{ toolCall: { id, name, args } }] });

function fakeServer() {
  let release!: () => void;
  const started = new Promise<void>((r) => (release = r));
  const calls: { name: string; args: Record<string, unknown> }[] = [];
  const client: OpenClient = {
    listTools: async () => [{ name: "look", description: "Looks", inputSchema: { type: "object", properties: { at: { type: "string" } } } }],
    callTool: async (name, args) => {
      calls.push({ name, args });
      return { content: [{ type: "text", text: `saw ${String(args.at)}` }] };
    },
    close: async () => undefined,
  };
  const manager = new McpManager({ cwd: "/", env: {}, open: async () => (await started, client) });
  manager.setServers([{ name: "srv", source: "global", config: { type: "http", url: "http://127.0.0.1:9/mcp", headers: {} } }]);
  const wiring: McpWiring = {
    get manager() {
      return manager;
    },
    setHostServers: vi.fn(async () => undefined),
    close: vi.fn(() => manager.shutdown()),
  };
  return { release, calls, wiring, manager };
}

describe("SessionMcp", () => {
  it("the first prompt waits for a server still starting; its tools reach the model and its calls the server", async () => {
    const server = fakeServer();
    const { stream, calls } = scriptedStream([callTool("c1", "mcp__srv__look", { at: "the sky" }), text("done")]);
    const { session } = testSession({ stream, mcp: server.wiring });
    expect(sessionWiring(session).mcp.servers()).toEqual([{ name: "srv", source: "global", status: "connecting", tools: [] }]);
    const handle = session.prompt("look");
    await handle.accepted;
    setTimeout(server.release, 30); // the server finishes starting after the prompt was accepted
    await handle.done;
    expect(calls[0].context.tools?.map((t) => t.name)).toContain("mcp__srv__look");
    expect(server.calls).toEqual([{ name: "look", args: { at: "the sky" } }]);
    const result = calls[1].context.messages.find((m) => m.role === "toolResult");
    expect(result).toMatchObject({ toolName: "mcp__srv__look", isError: false, content: [{ type: "text", text: "saw the sky" }] });
    expect(sessionWiring(session).tools.active().map((t) => t.name)).toContain("mcp__srv__look");
    expect(sessionWiring(session).mcp.servers()).toEqual([{ name: "srv", source: "global", status: "connected", tools: ["mcp__srv__look"] }]);

    await session.close();
    expect(server.wiring.close).toHaveBeenCalledTimes(1);
    await expect(sessionWiring(session).mcp.setHostServers({})).rejects.toThrow(PithError);
  });

  it("a wiring's allowTool limits the MCP tools the session offers (a subagent's agent definition)", async () => {
    const server = fakeServer();
    server.release();
    await server.manager.waitForStartup(new AbortController().signal);
    const { stream } = scriptedStream([text("ok")]);
    const allowed = testSession({ stream, mcp: { ...server.wiring, manager: server.manager, allowTool: (n) => n === "mcp__srv__look" } }).session;
    const refused = testSession({ stream, mcp: { ...server.wiring, manager: server.manager, allowTool: () => false } }).session;
    expect(sessionWiring(allowed).mcp.tools().map((t) => t.name)).toEqual(["mcp__srv__look"]);
    expect(sessionWiring(refused).mcp.tools()).toEqual([]);
    expect(sessionWiring(refused).tools.active().map((t) => t.name)).not.toContain("mcp__srv__look");
    await allowed.close();
    await refused.close();
  });

  it("without MCP wiring a session has no MCP servers and refuses set_mcp_servers", async () => {
    const { stream } = scriptedStream([text("ok")]);
    const { session } = testSession({ stream });
    expect(sessionWiring(session).mcp.servers()).toEqual([]);
    expect(sessionWiring(session).mcp.tools()).toEqual([]);
    await expect(sessionWiring(session).mcp.setHostServers({})).rejects.toThrow("MCP servers are not available in this session");
    await session.close();
  });
});
