// Client methods for the session commands of issue 19: discovery, the tree, open/delete.
import type { RpcResponseData } from "../protocol/index.js";
import { RpcConnection } from "./connection.js";

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
  /** One page of session files, newest first (`nextCursor` when there are more). */
  listSessions(opts: ListSessionsOptions = {}): Promise<Data<"list_sessions">> {
    return this.request("list_sessions", opts);
  }
  /** Every entry of the open session file, or those after entry `since`. */
  getEntries(since?: string): Promise<Data<"get_entries">> {
    return this.request("get_entries", { since });
  }
  /** The open session's entries as a tree (nodes `{entry, children, label?}`). */
  getTree(): Promise<Data<"get_tree">> {
    return this.request("get_tree", {});
  }
  /** Resumes the newest session of `sessionDir`, or starts one there. */
  openSession(sessionDir: string): Promise<Data<"open_session">> {
    return this.request("open_session", { sessionDir });
  }
  /** Deletes a session file nobody has open. */
  deleteSession(sessionPath: string): Promise<Data<"delete_session">> {
    return this.request("delete_session", { sessionPath });
  }
}
