// get_messages_page (oh-my-pi's shape and cursor format): one page of a stable snapshot of the
// context, at most `limit` messages and about 768 KiB, so a 10,000-message session is read without
// one giant frame. The cursor names the snapshot (session, leaf, message count) and the offset; a
// cursor from another snapshot is refused as stale.
import type { AgentMessage } from "../shared/types.js";

const DEFAULT_LIMIT = 100;
export const MAX_PAGE_LIMIT = 256;
export const MAX_PAGE_BYTES = 768 * 1024;
const MAX_CURSOR_CHARS = 2048;

export const PAGE_BUSY_ERROR = "Cannot page messages while the session is changing";
export const PAGE_STALE_ERROR = "RPC message cursor is stale";

/** A paging failure with oh-my-pi's machine-readable `code` (written on the error response). */
export class PageError extends Error {
  constructor(
    message: string,
    readonly rpcCode: "session_busy" | "stale_cursor",
  ) {
    super(message);
  }
}
const INVALID_CURSOR = "Invalid RPC message cursor";

export interface MessageSnapshot {
  sessionId: string;
  leafId: string | null;
  messageCount: number;
}

export interface MessagesPage {
  messages: AgentMessage[];
  nextCursor?: string;
  totalMessages: number;
}

interface CursorPayload extends MessageSnapshot {
  version: 1;
  offset: number;
}

function encodeCursor(snapshot: MessageSnapshot, offset: number): string {
  const payload: CursorPayload = { version: 1, ...snapshot, offset };
  return Buffer.from(JSON.stringify(payload), "utf8").toString("base64url");
}

function parseCursor(cursor: string): unknown {
  if (cursor.length === 0 || cursor.length > MAX_CURSOR_CHARS || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  const bytes = Buffer.from(cursor, "base64url");
  if (bytes.toString("base64url") !== cursor) return undefined;
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
}

function isCount(v: unknown): v is number {
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
}

export function decodeCursor(cursor: string): CursorPayload {
  const v = parseCursor(cursor) as Partial<CursorPayload> | undefined;
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new Error(INVALID_CURSOR);
  const { version, sessionId, leafId, messageCount, offset } = v;
  const leafOk = leafId === null || (typeof leafId === "string" && leafId.length > 0 && leafId.length <= 256);
  const idOk = typeof sessionId === "string" && sessionId.length > 0 && sessionId.length <= 256;
  if (version !== 1 || !idOk || !leafOk || !isCount(messageCount) || !isCount(offset) || offset > messageCount) {
    throw new Error(INVALID_CURSOR);
  }
  return { version, sessionId, leafId, messageCount, offset };
}

/** One page of `messages`, which must be the snapshot `snapshot` describes. */
export function pageMessages(
  messages: readonly AgentMessage[],
  snapshot: MessageSnapshot,
  options: { cursor?: string; limit?: number } = {},
): MessagesPage {
  const limit = options.limit ?? DEFAULT_LIMIT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw new Error(`RPC message page limit must be between 1 and ${MAX_PAGE_LIMIT}`);
  }
  let offset = 0;
  if (options.cursor !== undefined) {
    const c = decodeCursor(options.cursor);
    if (c.sessionId !== snapshot.sessionId || c.leafId !== snapshot.leafId || c.messageCount !== snapshot.messageCount) {
      throw new PageError(PAGE_STALE_ERROR, "stale_cursor");
    }
    offset = c.offset;
  }
  const page: AgentMessage[] = [];
  let bytes = 2;
  while (offset + page.length < messages.length && page.length < limit) {
    const message = messages[offset + page.length];
    const size = Buffer.byteLength(JSON.stringify(message), "utf8") + (page.length === 0 ? 0 : 1);
    if (page.length > 0 && bytes + size > MAX_PAGE_BYTES) break;
    page.push(message);
    bytes += size;
  }
  const next = offset + page.length;
  return {
    messages: page,
    ...(next < messages.length ? { nextCursor: encodeCursor(snapshot, next) } : {}),
    totalMessages: messages.length,
  };
}
