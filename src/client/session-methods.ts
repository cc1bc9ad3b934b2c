// Client methods for the session commands: discovery, the tree, open/delete.
import type { CreateSessionParams, RpcHostToolDefinition, RpcResponseData } from "../protocol/index.js";
import { RpcConnection } from "./connection.js";
import { treeFromEntries, type TreeEntry } from "./entry-tree.js";
import { RpcError } from "./errors.js";
import { SessionHandle } from "./session-handle.js";
import type { UiRequestHandler, AnyHostTool } from "./types.js";

type Data<T extends Parameters<RpcConnection["request"]>[0]> = RpcResponseData<T>;

export interface ListSessionsOptions {
  /** List this project's folder instead of the agent's session folder. */
  cwd?: string;
  /** List every project folder. */
  all?: boolean;
  limit?: number;
  cursor?: string;
  query?: string;
}

export abstract class RpcSessionCommands extends RpcConnection {
  /**
   * Keeps the executors of `tools` for the calls of session `sessionId` (undefined: the first
   * session) and returns the wire definitions to send with its `set_host_tools`. Each session
   * answers its own host tool calls; SessionHandle.setHostTools uses this.
   */
  abstract registerHostTools(tools: AnyHostTool[], sessionId?: string): RpcHostToolDefinition[];
  /**
   * Installs (undefined: removes) the handler of session `sessionId`'s dialogs (undefined: the
   * first session's, i.e. the client's `onUiRequest`); SessionHandle.onUiRequest uses this.
   */
  abstract setUiHandler(handler: UiRequestHandler | undefined, sessionId?: string): void;

  /** One page of session files, newest first (`nextCursor` when there are more). */
  listSessions(opts: ListSessionsOptions = {}): Promise<Data<"list_sessions">> {
    return this.request("list_sessions", opts);
  }
  /** Every entry of the open session file, or those after entry `since`. */
  getEntries(since?: string): Promise<Data<"get_entries">> {
    return this.request("get_entries", { since });
  }
  /**
   * The open session's entries as a tree (nodes `{entry, children, label?}`). A tree deeper than
   * pith answers as nested JSON (a long linear session) is nested here from `get_entries`.
   */
  async getTree(): Promise<Data<"get_tree">> {
    try {
      return await this.request("get_tree", {});
    } catch (err) {
      if (!(err instanceof RpcError) || !err.message.includes("too deep")) throw err;
    }
    const page = await this.request("get_entries", {});
    return { tree: treeFromEntries(page.entries as TreeEntry[]), leafId: page.leafId };
  }
  /** Resumes the newest session of `sessionDir`, or starts one there. */
  openSession(sessionDir: string): Promise<Data<"open_session">> {
    return this.request("open_session", { sessionDir });
  }
  /** Deletes a session file nobody has open. */
  deleteSession(sessionPath: string): Promise<Data<"delete_session">> {
    return this.request("delete_session", { sessionPath });
  }

  // ── many sessions in one process ──────────────────────────────────────────

  /** Opens another independent session; omitted fields follow the first session. */
  createSession(params: CreateSessionParams = {}): Promise<Data<"create_session">> {
    return this.request("create_session", params);
  }
  /** Closes a session opened with createSession. */
  closeSession(sessionId: string): Promise<Data<"close_session">> {
    return this.request("close_session", { sessionId });
  }
  getOpenSessions(): Promise<Data<"get_open_sessions">> {
    return this.request("get_open_sessions", {});
  }
  // ── oh-my-pi's subagent commands (the task tool) ──────────────────────────

  /** Which subagent frames to receive: "progress" (subagent_lifecycle, subagent_progress), "events" (also subagent_event), "off" (default) none. */
  setSubagentSubscription(level: "off" | "progress" | "events"): Promise<Data<"set_subagent_subscription">> {
    return this.request("set_subagent_subscription", { level });
  }
  /** The task tool's subagents running now. */
  getSubagents(): Promise<Data<"get_subagents">> {
    return this.request("get_subagents", {});
  }
  /** A subagent's session file from byte `fromByte` on (by `subagentId`, or one of its `sessionFile`s); pass back `nextByte` to read on. */
  getSubagentMessages(selector: { subagentId?: string; sessionFile?: string; fromByte?: number } = {}): Promise<Data<"get_subagent_messages">> {
    return this.request("get_subagent_messages", selector);
  }
  /** A handle for a session by id (undefined: the first session). */
  session(sessionId: string | undefined): SessionHandle {
    return new SessionHandle(this, sessionId);
  }
  /** createSession, returning its handle. */
  async newSessionHandle(params: CreateSessionParams = {}): Promise<SessionHandle> {
    const { sessionId } = await this.createSession(params);
    return this.session(sessionId);
  }
}
