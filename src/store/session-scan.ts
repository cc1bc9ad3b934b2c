// What a session picker needs of one session file, read without parsing the file: the header
// line, a byte scan that counts message lines, and a JSON parse only of the first user message and
// of `session_info` lines. A file that grew (append-only) after a clean last line is scanned from
// where the last scan stopped. Damaged lines are skipped; a file whose first line is not a session header is not a
// session (undefined). A listing scans thousands of files in one go, so the file is read into one
// shared buffer (one read for a small file) and lines are classified by byte compares.
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
const CLOSE_BRACE = 0x7d;
/** Size of the shared read buffer: a typical session file fits in one read. */
const CHUNK = 256 * 1024;
/** The longest first line read as a header. */
const MAX_HEADER = 1 << 20;
const FIRST_MESSAGE_CHARS = 200;
const MESSAGE_PREFIX = Buffer.from('{"type":"message",');
const INFO_PREFIX = Buffer.from('{"type":"session_info",');
const TYPE_MESSAGE = Buffer.from('"type":"message"');
const TYPE_INFO = Buffer.from('"type":"session_info"');
const USER_ROLE = Buffer.from('"role":"user"');

/** Scans are synchronous, so one buffer serves every file (a longer line gets its own). */
const shared = Buffer.allocUnsafe(CHUNK);

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
  const n = prefix.length;
  if (end - start < n) return false;
  for (let i = 0; i < n; i++) if (buf[start + i] !== prefix[i]) return false;
  return true;
}

function contains(buf: Buffer, start: number, end: number, needle: Buffer): boolean {
  return end - start >= needle.length && buf.subarray(start, end).indexOf(needle) !== -1;
}

/**
 * Calls `line` for every line of `fd` in [from, to), the last one possibly without its LF (`line`
 * returns false to stop). Returns where the unterminated tail starts (`to` when there is none), or
 * -1 when the first line is longer than `firstLineMax`.
 */
function readLines(fd: number, from: number, to: number, line: (buf: Buffer, start: number, end: number) => boolean, firstLineMax = Infinity): number {
  let buf = shared;
  let have = 0; // bytes of an unfinished line at buf[0..have)
  let base = from; // file offset of buf[0]
  let pos = from;
  while (pos < to) {
    if (have === buf.length) {
      if (base === from && have >= firstLineMax) return -1;
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, have);
      buf = bigger;
    }
    const n = fs.readSync(fd, buf, have, Math.min(buf.length - have, to - pos), pos);
    if (n <= 0) break;
    pos += n;
    const view = buf.subarray(0, have + n);
    let start = 0;
    for (let nl = view.indexOf(LF, have); nl !== -1; nl = view.indexOf(LF, start)) {
      if (!line(view, start, nl)) return base + nl + 1;
      start = nl + 1;
    }
    if (start > 0 && start < view.length) buf.copyWithin(0, start, view.length);
    base += start;
    have = view.length - start;
  }
  if (have > 0 && base === from && have > firstLineMax) return -1;
  if (have > 0) line(buf, 0, have);
  return base;
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

/** A listing's `firstMessage` for a user message's content: one line, clipped; undefined when it has no text. */
export function firstMessageText(content: unknown): string | undefined {
  const t = text(content);
  return t !== undefined && t.trim() !== "" ? oneLine(t) : undefined;
}

/** Looks at one line (without its LF). */
function scanLine(buf: Buffer, start: number, end: number, s: SessionSummary): void {
  if (end === start) return;
  // the writer puts `type` first: a prefix compare decides for almost every line
  let isMessage = startsWith(buf, start, end, MESSAGE_PREFIX);
  const isInfo = !isMessage && (startsWith(buf, start, end, INFO_PREFIX) || contains(buf, start, end, TYPE_INFO));
  if (!isMessage && !isInfo && contains(buf, start, end, TYPE_MESSAGE)) {
    // another writer's key order: parse to be sure
    const obj = parseObject(buf.toString("utf8", start, end));
    isMessage = obj?.type === "message" && !!obj.message && typeof obj.message === "object";
  }
  if (isMessage) {
    if (buf[end - 1] !== CLOSE_BRACE) return; // a torn line is not a message
    s.messageCount++;
    if (s.firstMessage === undefined && contains(buf, start, end, USER_ROLE)) {
      const msg = parseObject(buf.toString("utf8", start, end))?.message as { role?: unknown; content?: unknown } | undefined;
      const first = msg?.role === "user" ? firstMessageText(msg.content) : undefined;
      if (first !== undefined) s.firstMessage = first;
    }
    return;
  }
  if (isInfo) {
    const obj = parseObject(buf.toString("utf8", start, end));
    if (obj?.type === "session_info" && typeof obj.name === "string" && obj.name.trim() !== "") s.name = obj.name;
  }
}

/** Scans the lines of `fd` in [from, to) into `s`; returns where the unterminated tail starts. */
function scanLines(fd: number, from: number, to: number, s: SessionSummary): number {
  return readLines(fd, from, to, (buf, start, end) => {
    scanLine(buf, start, end, s);
    return true;
  });
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

function sessionHeader(buf: Buffer, start: number, end: number): Record<string, unknown> | undefined {
  const header = parseObject(buf.toString("utf8", start, end));
  return header?.type === "session" && typeof header.id === "string" ? header : undefined;
}

/** Header and every line of `fd` up to `size`, in one pass (one read for a small file). */
function scanWhole(fd: number, file: string, st: { size: number; mtimeMs: number }): ScanState {
  let s: SessionSummary | undefined;
  let first = true;
  const tail = readLines(
    fd,
    0,
    st.size,
    (buf, start, end) => {
      if (!first) {
        scanLine(buf, start, end, s as SessionSummary);
        return true;
      }
      first = false;
      const header = sessionHeader(buf, start, end);
      if (header) s = summaryOf(file, header, st.mtimeMs);
      return s !== undefined;
    },
    MAX_HEADER,
  );
  return { size: st.size, mtimeMs: st.mtimeMs, scannedTo: s === undefined ? 0 : tail, summary: s };
}

/** The header's id (first line of `fd`), or undefined when it is not a session header. */
function headerId(fd: number, size: number): string | undefined {
  let id: string | undefined;
  readLines(
    fd,
    0,
    size,
    (buf, start, end) => {
      id = sessionHeader(buf, start, end)?.id as string | undefined;
      return false;
    },
    MAX_HEADER,
  );
  return id;
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
    // appended lines after a clean end are scanned alone; after a torn tail (a crash mid-write),
    // whatever was read of that tail may have set the name or the count: scan it all again
    const prev = previous?.summary;
    if (prev && previous.scannedTo === previous.size && st.size > previous.size && headerId(fd, st.size) === prev.id) {
      const s = { ...prev, modifiedAt: new Date(st.mtimeMs).toISOString() };
      return { size: st.size, mtimeMs: st.mtimeMs, scannedTo: scanLines(fd, previous.size, st.size, s), summary: s };
    }
    return scanWhole(fd, file, st);
  } catch (err) {
    void err; // unreadable (permissions, vanished): not listed
    return { size: st.size, mtimeMs: st.mtimeMs, scannedTo: 0, summary: undefined };
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
