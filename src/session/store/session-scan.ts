// What a session picker needs of one session file, read without parsing the file: the header
// line, a byte scan that counts message lines, and a JSON parse only of the first user message and
// of `session_info` lines. A file that grew (append-only) is scanned from where the last scan
// stopped. Damaged lines are skipped; a file whose first line is not a session header is not a
// session (undefined).
import fs from "node:fs";
import { contentText } from "./message-text.js";

/** One row of `list_sessions`. */
export interface SessionSummary {
  path: string;
  id: string;
  name?: string;
  cwd: string;
  createdAt: string;
  modifiedAt: string;
  messageCount: number;
  firstMessage?: string;
  parentSession?: string;
}

/** The scan state kept per file (and reused when the file only grew). */
export interface ScanState {
  size: number;
  mtimeMs: number;
  /** Bytes scanned, always at a line start. */
  scannedTo: number;
  summary: SessionSummary | undefined;
}

const LF = 0x0a;
const CHUNK = 1 << 20;
/** The longest first line read as a header. */
const MAX_HEADER = 1 << 20;
const FIRST_MESSAGE_CHARS = 200;
const MESSAGE_PREFIX = Buffer.from('{"type":"message",');
const INFO_PREFIX = Buffer.from('{"type":"session_info",');
const TYPE_MESSAGE = Buffer.from('"type":"message"');
const TYPE_INFO = Buffer.from('"type":"session_info"');
const USER_ROLE = Buffer.from('"role":"user"');

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch (err) {
    void err; // a damaged line is skipped
    return undefined;
  }
}

function startsWith(buf: Buffer, start: number, end: number, prefix: Buffer): boolean {
  return end - start >= prefix.length && buf.compare(prefix, 0, prefix.length, start, start + prefix.length) === 0;
}

function contains(buf: Buffer, start: number, end: number, needle: Buffer): boolean {
  const at = buf.indexOf(needle, start);
  return at !== -1 && at + needle.length <= end;
}

/** The header of a session file (first line), or undefined when it is not one. */
function readHeader(fd: number): { header: Record<string, unknown>; length: number } | undefined {
  const buf = Buffer.alloc(Math.min(MAX_HEADER, 64 * 1024));
  let n = fs.readSync(fd, buf, 0, buf.length, 0);
  let nl = buf.subarray(0, n).indexOf(LF);
  let data = buf.subarray(0, n);
  if (nl === -1 && n === buf.length) {
    const big = Buffer.alloc(MAX_HEADER);
    n = fs.readSync(fd, big, 0, big.length, 0);
    data = big.subarray(0, n);
    nl = data.indexOf(LF);
  }
  const end = nl === -1 ? data.length : nl;
  const header = parseObject(data.toString("utf8", 0, end));
  if (header?.type !== "session" || typeof header.id !== "string") return undefined;
  return { header, length: nl === -1 ? end : end + 1 };
}

function text(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return contentText(value.filter((b): b is { type: "text"; text: string } => !!b && typeof b === "object" && (b as { type?: unknown }).type === "text" && typeof (b as { text?: unknown }).text === "string"));
  return undefined;
}

function oneLine(s: string): string {
  const flat = s.replace(/\s+/g, " ").trim();
  return flat.length > FIRST_MESSAGE_CHARS ? `${flat.slice(0, FIRST_MESSAGE_CHARS)}…` : flat;
}

/** Looks at one complete line (without its LF). */
function scanLine(buf: Buffer, start: number, end: number, s: SessionSummary): void {
  // the writer puts `type` first: a prefix compare decides for almost every line
  let isMessage = startsWith(buf, start, end, MESSAGE_PREFIX);
  const isInfo = !isMessage && (startsWith(buf, start, end, INFO_PREFIX) || contains(buf, start, end, TYPE_INFO));
  if (!isMessage && !isInfo && contains(buf, start, end, TYPE_MESSAGE)) {
    // another writer's key order: parse to be sure
    const obj = parseObject(buf.toString("utf8", start, end));
    isMessage = obj?.type === "message" && !!obj.message && typeof obj.message === "object";
  }
  if (isMessage) {
    if (buf[end - 1] !== 0x7d) return; // a torn line is not a message
    s.messageCount++;
    if (s.firstMessage === undefined && contains(buf, start, end, USER_ROLE)) {
      const msg = parseObject(buf.toString("utf8", start, end))?.message as { role?: unknown; content?: unknown } | undefined;
      const t = msg?.role === "user" ? text(msg.content) : undefined;
      if (t !== undefined && t.trim() !== "") s.firstMessage = oneLine(t);
    }
    return;
  }
  if (isInfo) {
    const obj = parseObject(buf.toString("utf8", start, end));
    if (obj?.type === "session_info" && typeof obj.name === "string" && obj.name.trim() !== "") s.name = obj.name;
  }
}

/** Scans complete lines of `fd` from `from`; returns where the last complete line ended. */
function scanLines(fd: number, from: number, size: number, s: SessionSummary): number {
  let pos = from;
  let carry: Buffer | undefined;
  let lineStart = from;
  while (pos < size) {
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, size - pos));
    const n = fs.readSync(fd, chunk, 0, chunk.length, pos);
    if (n <= 0) break;
    const buf = carry ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    const base = pos - (carry?.length ?? 0);
    let start = 0;
    for (let nl = buf.indexOf(LF, start); nl !== -1; nl = buf.indexOf(LF, start)) {
      if (nl > start) scanLine(buf, start, nl, s);
      start = nl + 1;
      lineStart = base + start;
    }
    carry = start < buf.length ? Buffer.from(buf.subarray(start)) : undefined;
    pos += n;
  }
  // a last line without LF still counts (it may be complete); the next scan starts before it
  if (carry && carry.length > 0) scanLine(carry, 0, carry.length, s);
  return lineStart;
}

function summaryOf(file: string, header: Record<string, unknown>, mtimeMs: number): SessionSummary {
  const s: SessionSummary = {
    path: file,
    id: header.id as string,
    cwd: typeof header.cwd === "string" ? header.cwd : "",
    createdAt: typeof header.timestamp === "string" ? header.timestamp : new Date(mtimeMs).toISOString(),
    modifiedAt: new Date(mtimeMs).toISOString(),
    messageCount: 0,
  };
  if (typeof header.name === "string" && header.name.trim() !== "") s.name = header.name;
  if (typeof header.parentSession === "string") s.parentSession = header.parentSession;
  return s;
}

/**
 * The summary of `file` given its stat, reusing `previous` when the file is unchanged, and
 * scanning only the new bytes when it grew. Never throws for a damaged or unreadable file.
 */
export function scanSessionFile(file: string, st: { size: number; mtimeMs: number }, previous: ScanState | undefined): ScanState {
  if (previous && previous.size === st.size && previous.mtimeMs === st.mtimeMs) return previous;
  let fd: number | undefined;
  try {
    fd = fs.openSync(file, "r");
    const grew = previous?.summary && st.size > previous.size && previous.scannedTo > 0;
    if (grew && previous.summary) {
      const s = { ...previous.summary, modifiedAt: new Date(st.mtimeMs).toISOString() };
      const head = readHeader(fd);
      if (head && head.header.id === s.id) {
        // the tail line of the previous scan may have been torn: count from a clean restart point
        const restart = previous.scannedTo;
        const tailCounted = previous.size > restart ? rescanTail(fd, restart, previous.size) : 0;
        s.messageCount -= tailCounted;
        return { size: st.size, mtimeMs: st.mtimeMs, scannedTo: scanLines(fd, restart, st.size, s), summary: s };
      }
    }
    const head = readHeader(fd);
    if (!head) return { size: st.size, mtimeMs: st.mtimeMs, scannedTo: 0, summary: undefined };
    const s = summaryOf(file, head.header, st.mtimeMs);
    return { size: st.size, mtimeMs: st.mtimeMs, scannedTo: scanLines(fd, head.length, st.size, s), summary: s };
  } catch (err) {
    void err; // unreadable (permissions, vanished): not listed
    return { size: st.size, mtimeMs: st.mtimeMs, scannedTo: 0, summary: undefined };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Messages counted in the unterminated tail of the previous scan (to undo before rescanning it). */
function rescanTail(fd: number, from: number, to: number): number {
  const probe: SessionSummary = { path: "", id: "", cwd: "", createdAt: "", modifiedAt: "", messageCount: 0, firstMessage: "" };
  scanLines(fd, from, to, probe);
  return probe.messageCount;
}
