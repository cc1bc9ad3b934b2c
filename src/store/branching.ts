// Branch and clone: the entries and header of a new session file derived from
// a path of the current one. Pure: the store turns these parts into a new store.
import path from "node:path";
import { PithError } from "../shared/errors.js";
import { entryId, snowflake } from "../shared/ids.js";
import { PITH_SESSION_VERSION, type LabelEntry, type SessionEntry, type SessionHeader } from "./entry-types.js";
import { newSessionFileName } from "./layout.js";
import { contentText } from "./message-text.js";

export interface UserMessageRef {
  entryId: string;
  text: string;
}

/** What a derived session file starts from. */
export interface DerivedParts {
  header: SessionHeader;
  entries: SessionEntry[];
  /** Beside the source file; undefined for an in-memory source. */
  filePath?: string;
  /** Written at once (branch with history, clone), or lazily (branch from the first message). */
  writeNow: boolean;
}

/** What branching reads of the source session. */
export interface BranchSource {
  readonly path: string | undefined;
  readonly cwd: string;
  getEntry(id: string): SessionEntry | undefined;
  getLabel(id: string): string | undefined;
  branch(leafId?: string | null): SessionEntry[];
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
function copyPath(source: BranchSource, pathEntries: SessionEntry[]): SessionEntry[] {
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

function derived(source: BranchSource, entries: SessionEntry[], writeNow: boolean): DerivedParts {
  const now = Date.now();
  const header: SessionHeader = {
    type: "session",
    version: PITH_SESSION_VERSION,
    id: snowflake(now),
    timestamp: new Date(now).toISOString(),
    cwd: source.cwd,
  };
  if (source.path !== undefined) header.parentSession = source.path;
  const parts: DerivedParts = { header, entries, writeNow };
  if (source.path !== undefined) parts.filePath = path.join(path.dirname(source.path), newSessionFileName(header.id, now));
  return parts;
}

/**
 * `entryId` must be a user message entry, else PithError "Invalid entry ID for branching". The new
 * session holds the path up to (excluding) it; a first message gives an empty session written
 * lazily. Also returns the selected message's text blocks, concatenated with no separator.
 */
export function branchParts(source: BranchSource, id: string): { parts: DerivedParts; text: string } {
  const entry = source.getEntry(id);
  if (!entry || entry.type !== "message" || entry.message.role !== "user") {
    throw new PithError("invalid_request", "Invalid entry ID for branching");
  }
  const text = contentText(entry.message.content);
  if (entry.parentId === null) return { parts: derived(source, [], false), text };
  return { parts: derived(source, copyPath(source, source.branch(entry.parentId)), true), text };
}

/** A copy of the current branch (pi's clone). In-memory sessions cannot be cloned. */
export function cloneParts(source: BranchSource): DerivedParts {
  if (source.path === undefined) throw new PithError("invalid_request", "Cannot clone an in-memory session");
  return derived(source, copyPath(source, source.branch()), true);
}
