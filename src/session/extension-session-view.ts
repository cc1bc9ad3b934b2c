// `ctx.sessionManager` for a session's extensions: pi's read-only session manager over whichever
// file the session has open (it follows new / switch / branch, so extensions may keep the object
// as a key). Entries are handed out in pi's SessionEntry shape; pith's own field names for the
// same facts (`fromExtension`) are mapped to pi's (`fromHook`).
import type { PiSessionEntry, ReadonlySessionManager } from "../extensions/index.js";
import type { AgentMessage } from "../shared/types.js";
import { buildTree, type SessionTreeNode } from "../store/entry-views.js";
import type { SessionEntry } from "../store/entry-types.js";
import type { SessionLog } from "../store/session-log.js";

export interface SessionViewSource {
  cwd: string;
  log(): SessionLog;
  sessionDir(): string | undefined;
  messages(): AgentMessage[];
  model(): { provider: string; id: string } | undefined;
  thinkingLevel(): string | undefined;
}

/** One entry as pi writes it. */
export function toPiEntry(entry: SessionEntry): PiSessionEntry {
  switch (entry.type) {
    case "compaction":
    case "branch_summary": {
      const { fromExtension, ...rest } = entry;
      return fromExtension === undefined ? rest : { ...rest, fromHook: fromExtension };
    }
    case "thinking_level_change":
      return entry.thinkingLevel === null ? { ...entry, thinkingLevel: "off" } : entry;
    default:
      return entry;
  }
}

function toPiTree(nodes: SessionTreeNode[]): ReturnType<ReadonlySessionManager["getTree"]> {
  // Iterative: a long linear session must not overflow the stack.
  const roots = nodes.map((n) => ({ src: n, out: { entry: toPiEntry(n.entry), children: [] as ReturnType<ReadonlySessionManager["getTree"]>, ...(n.label !== undefined ? { label: n.label } : {}) } }));
  const stack = [...roots];
  while (stack.length > 0) {
    const { src, out } = stack.pop()!;
    for (const child of src.children) {
      const item = { src: child, out: { entry: toPiEntry(child.entry), children: [] as ReturnType<ReadonlySessionManager["getTree"]>, ...(child.label !== undefined ? { label: child.label } : {}) } };
      out.children.push(item.out);
      stack.push(item);
    }
  }
  return roots.map((r) => r.out);
}

export function createSessionView(s: SessionViewSource): ReadonlySessionManager {
  const map = (list: readonly SessionEntry[]) => list.map(toPiEntry);
  return {
    getCwd: () => s.cwd,
    getSessionDir: () => s.sessionDir() ?? "",
    getSessionId: () => s.log().sessionId,
    getSessionFile: () => s.log().path,
    getLeafId: () => s.log().leafId,
    getLeafEntry: () => {
      const id = s.log().leafId;
      const entry = id === null ? undefined : s.log().getEntry(id);
      return entry && toPiEntry(entry);
    },
    getEntry: (id) => {
      const entry = s.log().getEntry(id);
      return entry && toPiEntry(entry);
    },
    getLabel: (id) => s.log().getLabel(id),
    getBranch: (fromId) => map(s.log().branch(fromId ?? s.log().leafId)),
    buildContextEntries: () => map(s.log().contextBranch()),
    buildSessionProjection: () => {
      const model = s.model();
      const entries = map(s.log().contextBranch()).map((e) => ({ sourceEntry: e, messages: e.type === "message" ? [e.message as AgentMessage] : [] }));
      return { entries, messages: [...s.messages()], thinkingLevel: s.thinkingLevel() ?? "off", model: model ? { provider: model.provider, modelId: model.id } : null };
    },
    getHeader: () => {
      const h = s.log().header;
      return { type: "session", version: h.version, id: h.id, timestamp: h.timestamp, cwd: h.cwd, ...(h.parentSession ? { parentSession: h.parentSession } : {}) };
    },
    getEntries: () => map(s.log().entries()),
    getTree: () => toPiTree(buildTree(s.log())),
    getSessionName: () => s.log().name,
  };
}
