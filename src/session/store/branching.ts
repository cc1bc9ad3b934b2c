// Branch and clone: new session files derived from a path of the current one (engine.md §1.9.3).
import path from "node:path";
import { PithError } from "../../shared/errors.js";
import { entryId, snowflake } from "../../shared/ids.js";
import { PITH_SESSION_VERSION, type LabelEntry, type SessionEntry, type SessionHeader } from "./entry-types.js";
import { newSessionFileName } from "./layout.js";
import { contentText } from "./message-text.js";
import { SessionStore } from "./session-store.js";

export interface UserMessageRef {
  entryId: string;
  text: string;
}
export interface BranchResult {
  store: SessionStore;
  /** The selected user message's text blocks, concatenated with no separator. */
  text: string;
}

/** Every user `message` entry with non-empty text, in file order. */
export function userMessageEntries(entries: readonly SessionEntry[]): UserMessageRef[] {
  const out: UserMessageRef[] = [];
  for (const e of entries) {
    if (e.type !== "message" || e.message.role !== "user") continue;
    const text = contentText(e.message.content);
    if (text.trim() !== "") out.push({ entryId: e.id, text });
  }
  return out;
}

/** Copies of the path entries without labels, then one fresh label per labelled entry on the path. */
function copyPath(source: SessionStore, pathEntries: SessionEntry[]): SessionEntry[] {
  const out: SessionEntry[] = [];
  for (const e of pathEntries) {
    // re-chain over the removed labels: the copied path is linear
    if (e.type !== "label") out.push({ ...e, parentId: out.length > 0 ? out[out.length - 1].id : null });
  }
  const ids = new Set(out.map((e) => e.id));
  let parentId = out.length > 0 ? out[out.length - 1].id : null;
  for (const e of out.slice()) {
    const label = source.getLabel(e.id);
    if (label === undefined) continue;
    const entry: LabelEntry = { type: "label", id: entryId(ids), parentId, timestamp: new Date().toISOString(), targetId: e.id, label };
    ids.add(entry.id);
    out.push(entry);
    parentId = entry.id;
  }
  return out;
}

function derivedStore(source: SessionStore, entries: SessionEntry[], writeNow: boolean): SessionStore {
  const now = Date.now();
  const header: SessionHeader = {
    type: "session",
    version: PITH_SESSION_VERSION,
    id: snowflake(now),
    timestamp: new Date(now).toISOString(),
    cwd: source.cwd,
  };
  if (source.path !== undefined) header.parentSession = source.path;
  const filePath = source.path === undefined ? undefined : path.join(path.dirname(source.path), newSessionFileName(header.id, now));
  const store = SessionStore.fromParts({ header, entries, cwd: source.cwd, filePath }, source.writeOptions);
  if (writeNow) store.ensureOnDisk();
  return store;
}

/**
 * `entryId` must be a user message entry, else PithError "Invalid entry ID for branching". The new
 * store holds the path up to (excluding) it; a first message gives an empty session written
 * lazily. The source store is left open: the caller closes it.
 */
export function branchStore(source: SessionStore, id: string): BranchResult {
  const entry = source.getEntry(id);
  if (!entry || entry.type !== "message" || entry.message.role !== "user") {
    throw new PithError("invalid_request", "Invalid entry ID for branching");
  }
  const text = contentText(entry.message.content);
  if (entry.parentId === null) return { store: derivedStore(source, [], false), text };
  return { store: derivedStore(source, copyPath(source, source.branch(entry.parentId)), true), text };
}

/** A new file with a copy of the current branch (pi's clone). In-memory sessions cannot be cloned. */
export function cloneStore(source: SessionStore): SessionStore {
  if (source.path === undefined) throw new PithError("invalid_request", "Cannot clone an in-memory session");
  return derivedStore(source, copyPath(source, source.branch()), true);
}
