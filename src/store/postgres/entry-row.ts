// An entry as the database keeps it: its JSON line as written plus the small fields the tree's
// index and the listings are rebuilt from, so neither has to read lines.
import type { SessionEntry, SessionHeader } from "../entry-types.js";
import { firstMessageText } from "../session-scan.js";
import type { EntryRow, NewSessionRow } from "./protocol.js";

/** The columns of `entry`, whose line is `line`, at position `seq` and JSONL offset `offset`. */
export function entryRow(entry: SessionEntry, seq: number, offset: number, line: string): EntryRow {
  return {
    seq,
    entryId: entry.id,
    parentId: entry.parentId,
    type: entry.type,
    role: entry.type === "message" ? entry.message.role : null,
    customType: entry.type === "custom" || entry.type === "custom_message" ? entry.customType : null,
    firstKept: entry.type === "compaction" ? entry.firstKeptEntryId : null,
    labelTarget: entry.type === "label" ? entry.targetId : null,
    label: entry.type === "label" ? (entry.label ?? null) : null,
    infoName: entry.type === "session_info" ? (entry.name ?? null) : null,
    offset,
    line,
  };
}

/** A listing's first message when `entry` is a user message with text. */
export function firstMessageOf(entry: SessionEntry): string | null {
  return entry.type === "message" && entry.message.role === "user" ? (firstMessageText(entry.message.content) ?? null) : null;
}

/** Bytes of a line plus its LF in the JSONL form. */
export const lineBytes = (line: string): number => Buffer.byteLength(line, "utf8") + 1;

/** A new session's row and entry rows, and its size as a JSONL file. */
export function sessionRows(
  header: SessionHeader,
  headerLine: string,
  dir: string,
  entries: readonly SessionEntry[],
  lines: readonly string[],
): { session: NewSessionRow; rows: EntryRow[]; bytes: number } {
  let bytes = lineBytes(headerLine);
  const rows: EntryRow[] = [];
  let name = typeof header.name === "string" && header.name.trim() !== "" ? header.name : null;
  let firstMessage: string | null = null;
  let messageCount = 0;
  entries.forEach((e, i) => {
    rows.push(entryRow(e, i, bytes, lines[i]));
    bytes += lineBytes(lines[i]);
    if (e.type === "message") messageCount++;
    firstMessage ??= firstMessageOf(e);
    if (e.type === "session_info" && e.name && e.name.trim() !== "") name = e.name;
  });
  const session: NewSessionRow = {
    id: header.id,
    dir,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    header: headerLine,
    createdAt: typeof header.timestamp === "string" ? header.timestamp : new Date().toISOString(),
    name,
    firstMessage,
    messageCount,
    parentSession: typeof header.parentSession === "string" ? header.parentSession : null,
  };
  return { session, rows, bytes };
}
