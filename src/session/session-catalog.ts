// The sessions as a host's picker and history view see them: list the sessions of a project (or
// of all), read the open session's entries and tree, open a folder (oh-my-pi's open_session),
// delete a session that nobody has open. Whatever stores the sessions answers (SessionStorage).
import path from "node:path";
import { PithError } from "../shared/errors.js";
import type { SessionHistory } from "./session-history.js";
import { buildTree, selectEntries, treeDepth, type EntriesPage, type SessionTreeNode } from "../store/entry-views.js";
import type { ListSessionsResult } from "../store/session-list.js";
import type { SessionStorage } from "../store/storage.js";

export interface ListSessionsParams {
  cwd?: string;
  all?: boolean;
  limit?: number;
  cursor?: string;
  query?: string;
}

export interface OpenSessionResult {
  cancelled: boolean;
  resumed: boolean;
  sessionId: string;
  sessionFile?: string;
}

/**
 * Deepest `get_tree` answer written as nested JSON: beyond it JSON.stringify (and most hosts'
 * parsers) overflow their stacks, so the command fails and names `get_entries` instead.
 */
export const MAX_TREE_DEPTH = 1000;

export interface SessionCatalogOptions {
  history: SessionHistory;
  storage: SessionStorage;
  /** The process working directory (relative paths resolve against it). */
  cwd: string;
  /** `PITH_HOME`: its `sessions/` folder holds one folder per project. */
  pithHome: string;
}

export class SessionCatalog {
  constructor(private readonly o: SessionCatalogOptions) {}

  /** `list_sessions`: newest first; see ListSessionsParams. */
  async list(p: ListSessionsParams): Promise<ListSessionsResult> {
    const own = this.o.history.sessionDir;
    let dirs: string[];
    if (p.all) {
      dirs = own === undefined ? [] : [own];
    } else if (p.cwd !== undefined) {
      if (p.cwd.trim() === "") throw new PithError("invalid_request", 'Invalid "cwd": expected a non-empty path');
      dirs = [this.o.storage.dirFor(this.o.pithHome, path.resolve(this.o.cwd, p.cwd))];
    } else {
      dirs = own === undefined ? [] : [own];
    }
    const query = { dirs, limit: p.limit, cursor: p.cursor, query: p.query };
    return this.o.storage.list(p.all ? { ...query, all: { pithHome: this.o.pithHome } } : query);
  }

  /** `get_entries`: every entry in file order, or those after `since`. */
  entries(since?: string): EntriesPage {
    return selectEntries(this.o.history.log, since);
  }

  /** `get_tree`: the entries nested under their parents (oh-my-pi's shape). */
  tree(): { tree: SessionTreeNode[]; leafId: string | null } {
    const log = this.o.history.log;
    const tree = buildTree(log);
    const depth = treeDepth(tree);
    if (depth > MAX_TREE_DEPTH) {
      throw new PithError(
        "invalid_request",
        `The session tree is ${depth} entries deep, too deep to answer as nested JSON (limit ${MAX_TREE_DEPTH}); use get_entries (each entry names its parentId)`,
      );
    }
    return { tree, leafId: log.leafId };
  }

  /** `open_session`: resume the newest session of `sessionDir` that has messages, else start one there. */
  async open(sessionDir: string): Promise<OpenSessionResult> {
    const h = this.o.history;
    if (typeof sessionDir !== "string" || sessionDir.trim() === "") {
      throw new PithError("invalid_request", 'Invalid "sessionDir": expected a non-empty path');
    }
    if (h.sessionDir === undefined) throw new PithError("invalid_request", "open_session requires session persistence (omit --no-session)");
    const dir = path.resolve(this.o.cwd, sessionDir);
    const latest = await this.o.storage.newestWithMessages(dir);
    const current = h.sessionFile;
    const alreadyOpen = latest !== undefined ? current === latest : current !== undefined && this.o.storage.inDir(current, dir) && h.messages.length === 0;
    let cancelled = false;
    if (!alreadyOpen) {
      cancelled = latest !== undefined ? (await h.switchTo(latest)).cancelled : (await h.newSession(undefined, dir)).cancelled;
    }
    const out: OpenSessionResult = { cancelled, resumed: !cancelled && latest !== undefined, sessionId: h.sessionId };
    if (h.sessionFile !== undefined) out.sessionFile = h.sessionFile;
    return out;
  }

  /** `delete_session`: refuses the open session, any locked one and anything not a session. */
  delete(sessionPath: string): { path: string } {
    if (typeof sessionPath !== "string" || sessionPath.trim() === "") {
      throw new PithError("invalid_request", 'Invalid "sessionPath": expected a non-empty string');
    }
    const ref = this.o.storage.resolve(sessionPath, this.o.cwd);
    if (ref === this.o.history.sessionFile) throw new PithError("busy", `Cannot delete the open session: ${ref}`);
    return { path: this.o.storage.delete(ref, this.o.cwd) };
  }
}
