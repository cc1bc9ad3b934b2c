// The ACP front door: an `agent()` app of the official SDK whose handlers drive pith sessions
// through their facade. Several sessions per connection; each one a pith session file.
import * as acp from "@agentclientprotocol/sdk";
import { readFile } from "node:fs/promises";
import { errorMessage } from "../shared/errors.js";
import { AcpSession, PromptError, type ClientPort } from "./acp-session.js";
import { configOptions, setConfigOption } from "./config-options.js";
import type { AcpHost, AcpMcpServer, ClientFiles, HostedAcpSession } from "./host.js";
import type { PromptBlock } from "./prompt-content.js";
import { isModeId, modeState } from "./permissions.js";
import { FileJournal, replayMessages, type AcpUpdate } from "./session-updates.js";

/** Text files read for resource links are capped (the model gets the head). */
const MAX_LINK_BYTES = 256 * 1024;

/** ACP's McpServer list → the `mcpServers` map pith's MCP layer takes (`.mcp.json`'s shape). */
export function mcpServerMap(servers: readonly AcpMcpServer[]): Record<string, unknown> {
  const pairs = (list: Array<{ name: string; value: string }>) => Object.fromEntries(list.map((p) => [p.name, p.value]));
  const out: Record<string, unknown> = {};
  for (const s of servers) {
    if ("url" in s) out[s.name] = { type: s.type, url: s.url, headers: pairs(s.headers ?? []) };
    else out[s.name] = { command: s.command, args: s.args ?? [], env: pairs(s.env ?? []) };
  }
  return out;
}

export interface AcpFrontDoor {
  app: acp.AgentApp;
  /** Closes every session (at the end of the connection). */
  closeAll(): Promise<void>;
}

export function createAcpAgent(host: AcpHost): AcpFrontDoor {
  const sessions = new Map<string, AcpSession>();
  let client: acp.AgentContext | undefined;
  let clientFs = { read: false, write: false };

  const port = (sessionId: string): ClientPort => ({
    notify: async (update: AcpUpdate) => {
      await client?.notify(acp.methods.client.session.update, { sessionId, update: update as acp.SessionUpdate });
    },
    requestPermission: async (ask) => {
      if (!client) return undefined;
      const params: acp.RequestPermissionRequest = {
        sessionId,
        toolCall: { toolCallId: ask.toolCallId, title: ask.title, rawInput: ask.rawInput, ...(ask.kind ? { kind: ask.kind as acp.ToolKind } : {}) },
        options: ask.options,
      };
      const res = await client.request(
        acp.methods.client.session.requestPermission,
        params,
        { cancellationSignal: ask.signal },
      );
      return res.outcome.outcome === "selected" ? res.outcome.optionId : undefined;
    },
    readFile: async (path) => {
      try {
        if (clientFs.read && client) return (await client.request(acp.methods.client.fs.readTextFile, { sessionId, path })).content;
        const text = await readFile(path, "utf8");
        return text.length > MAX_LINK_BYTES ? text.slice(0, MAX_LINK_BYTES) : text;
      } catch (err) {
        host.log(`cannot read ${path}: ${errorMessage(err)}`);
        return undefined;
      }
    },
    log: host.log,
  });

  /** The editor's files for a session whose id is known once it exists. */
  const clientFiles = (id: () => string | undefined, journal: FileJournal): ClientFiles | undefined => {
    if (!clientFs.read && !clientFs.write) return undefined;
    const need = () => {
      const sessionId = id();
      if (!client || !sessionId) throw new Error("the editor connection is not ready");
      return { c: client, sessionId };
    };
    return {
      read: clientFs.read
        ? async (path) => {
            const { c, sessionId } = need();
            const text = (await c.request(acp.methods.client.fs.readTextFile, { sessionId, path })).content;
            journal.recordRead(path, text);
            return text;
          }
        : undefined,
      write: clientFs.write
        ? async (path, content) => {
            const { c, sessionId } = need();
            await c.request(acp.methods.client.fs.writeTextFile, { sessionId, path, content });
            journal.recordWrite(path, content);
          }
        : undefined,
    };
  };

  /** Builds a session whose file access knows its own id (the id exists only after it is made). */
  const make = async (mcpServers: readonly AcpMcpServer[], build: (files: ClientFiles | undefined) => Promise<HostedAcpSession>): Promise<AcpSession> => {
    const ref: { id?: string } = {};
    const journal = new FileJournal();
    const hosted = await build(clientFiles(() => ref.id, journal));
    ref.id = hosted.session.id;
    return adopt(hosted, journal, mcpServers);
  };

  const find = (sessionId: string): AcpSession => {
    const s = sessions.get(sessionId);
    if (!s) throw acp.RequestError.sessionNotFound(sessionId);
    return s;
  };

  const adopt = async (hosted: HostedAcpSession, journal: FileJournal, mcpServers: readonly AcpMcpServer[]): Promise<AcpSession> => {
    const id = hosted.session.id;
    const existing = sessions.get(id);
    if (existing) {
      await hosted.session.close();
      return existing;
    }
    const s = new AcpSession(id, hosted, port(id), journal);
    sessions.set(id, s);
    await s.start();
    if (mcpServers.length > 0) await s.session.handle({ type: "set_mcp_servers", servers: mcpServerMap(mcpServers) });
    return s;
  };

  const later = (fn: () => void) => setImmediate(fn);

  const app = acp
    .agent({ name: "pith" })
    .onConnect((conn) => {
      client = conn.client;
    })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      clientFs = { read: params.clientCapabilities?.fs?.readTextFile === true, write: params.clientCapabilities?.fs?.writeTextFile === true };
      const problem = host.authProblem();
      return {
        protocolVersion: Math.min(params.protocolVersion, acp.PROTOCOL_VERSION),
        agentInfo: { name: "pith", title: "pith", version: host.version },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: host.acceptsImages(), embeddedContext: true },
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, resume: {}, close: {} },
        },
        authMethods: problem ? [{ id: "api-key-env", name: "Set an API key", description: problem }] : [],
      };
    })
    .onRequest(acp.methods.agent.authenticate, () => {
      const problem = host.authProblem();
      if (problem) throw acp.RequestError.authRequired(undefined, problem);
      return {};
    })
    .onRequest(acp.methods.agent.session.new, async ({ params }) => {
      const servers = params.mcpServers as AcpMcpServer[];
      const s = await make(servers, (files) => host.create({ cwd: params.cwd, mcpServers: servers, files }));
      later(() => void s.announceCommands());
      return { sessionId: s.id, configOptions: await configOptions(s.session), modes: modeState(s.session) };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params }) => {
      const servers = params.mcpServers as AcpMcpServer[];
      const s = sessions.get(params.sessionId) ?? (await make(servers, (files) => host.open(params.sessionId, { cwd: params.cwd, mcpServers: servers, files })));
      const { messages } = await s.session.handle({ type: "get_messages" });
      for (const u of replayMessages(messages, s.session.cwd)) s.send(u);
      await s.flush();
      later(() => void s.announceCommands());
      return { configOptions: await configOptions(s.session), modes: modeState(s.session) };
    })
    .onRequest(acp.methods.agent.session.resume, async ({ params }) => {
      const servers = (params.mcpServers ?? []) as AcpMcpServer[];
      const s = sessions.get(params.sessionId) ?? (await make(servers, (files) => host.open(params.sessionId, { cwd: params.cwd, mcpServers: servers, files })));
      later(() => void s.announceCommands());
      return { configOptions: await configOptions(s.session), modes: modeState(s.session) };
    })
    .onRequest(acp.methods.agent.session.list, async ({ params }) => {
      const page = await host.list(params.cwd ?? undefined, params.cursor ?? undefined);
      const sessions = page.sessions.map((s) => ({ sessionId: s.sessionId, cwd: s.cwd, title: s.title ?? null, updatedAt: s.updatedAt ?? null }));
      return page.nextCursor ? { sessions, nextCursor: page.nextCursor } : { sessions };
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      const s = find(params.sessionId);
      sessions.delete(params.sessionId);
      await s.close();
      return {};
    })
    .onRequest(acp.methods.agent.session.setMode, async ({ params }) => {
      const s = find(params.sessionId);
      if (!isModeId(params.modeId)) throw acp.RequestError.invalidParams(undefined, `Unknown mode "${params.modeId}" (allow, ask, ask-writes, read-only)`);
      await s.session.handle({ type: "set_permissions", rules: { mode: params.modeId as "allow" } });
      s.send({ sessionUpdate: "current_mode_update", currentModeId: params.modeId });
      return {};
    })
    .onRequest(acp.methods.agent.session.setConfigOption, async ({ params }) => {
      const s = find(params.sessionId);
      await setConfigOption(s.session, params.configId, params.value);
      return { configOptions: await configOptions(s.session) };
    })
    .onRequest(acp.methods.agent.session.prompt, async ({ params }) => {
      const s = find(params.sessionId);
      try {
        return { stopReason: await s.prompt(params.prompt as PromptBlock[]) };
      } catch (err) {
        if (err instanceof PromptError) throw acp.RequestError.internalError(undefined, err.message);
        throw err;
      }
    })
    .onNotification(acp.methods.agent.session.cancel, async ({ params }) => {
      await sessions.get(params.sessionId)?.cancel();
    });

  return {
    app,
    closeAll: async () => {
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.all(all.map((s) => s.close().catch((err) => host.log(`closing session ${s.id}: ${errorMessage(err)}`))));
    },
  };
}
