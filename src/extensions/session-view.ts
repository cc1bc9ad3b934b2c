// `ctx.sessionManager`: pi's read-only session manager, as the session offers it to extensions.
// Entries have pi's SessionEntry shape (one header line and entries with `id` / `parentId`, the
// format both agents write); the session builds the view over its open file, whatever store
// holds it (held in memory or an index over a large file).
import type { AgentMessage } from "../shared/types.js";

export interface PiSessionHeader {
  type: "session";
  version?: number;
  id: string;
  timestamp: string;
  cwd: string;
  parentSession?: string;
}

/** One entry of the session file in pi's shape (`message`, `custom`, `compaction`, `label`...). */
export interface PiSessionEntry {
  type: string;
  id: string;
  parentId: string | null;
  timestamp: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- pi's entries carry fields of their own types
  [field: string]: any;
}

export interface PiSessionTreeNode {
  entry: PiSessionEntry;
  children: PiSessionTreeNode[];
  label?: string;
}

export interface PiSessionProjection {
  entries: Array<{ sourceEntry: PiSessionEntry; messages: AgentMessage[] }>;
  messages: AgentMessage[];
  thinkingLevel: string;
  model: { provider: string; modelId: string } | null;
}

export interface ReadonlySessionManager {
  getCwd(): string;
  /** Where session files of this session are written ("" when the session lives in memory). */
  getSessionDir(): string;
  getSessionId(): string;
  /** Undefined for a session held in memory only. */
  getSessionFile(): string | undefined;
  getLeafId(): string | null;
  getLeafEntry(): PiSessionEntry | undefined;
  getEntry(id: string): PiSessionEntry | undefined;
  getLabel(id: string): string | undefined;
  /** Root → `fromId` (default: the current leaf). */
  getBranch(fromId?: string): PiSessionEntry[];
  /** The current branch from the latest compaction on: what the context is built from. */
  buildContextEntries(): PiSessionEntry[];
  buildSessionProjection(): PiSessionProjection;
  getHeader(): PiSessionHeader | null;
  /** Every entry of every branch, in file order. */
  getEntries(): PiSessionEntry[];
  getTree(): PiSessionTreeNode[];
  getSessionName(): string | undefined;
}
