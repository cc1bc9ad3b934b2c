// The index of a session file: per entry its id, parent, type, byte offset and length, plus the
// few small fields the tree needs (labels, names, custom types, compactions' first kept entry).
// Built in one streaming pass: lines in pith's key order (`{"type":"message","id":..,"parentId":..,
// "timestamp":..,"message":{"role":..`) are indexed from their first bytes; every other line is
// parsed and checked as a full load would (migrate.ts), then only its small fields are kept.
import fs from "node:fs";
import { KNOWN_ENTRY_TYPES, type SessionEntry } from "./entry-types.js";
import { checkRecord, keptAncestorIn } from "./migrate.js";
import { readFully, scanLines } from "./line-scan.js";
import { IndexTable } from "./index-table.js";

export type { IndexTable } from "./index-table.js";

export const ENTRY_TYPES = [...KNOWN_ENTRY_TYPES] as SessionEntry["type"][];
const TYPE_CODE = new Map<string, number>(ENTRY_TYPES.map((t, i) => [t, i]));
export const TYPE_MASK = 0x0f;
export const F_ASSISTANT = 0x10;
export const F_USER = 0x20;
/** Indexed from its first bytes: the full checks run when it is first read. */
export const F_UNCHECKED = 0x40;
/** Found damaged when read: left out like a full load leaves it out. */
export const F_DELETED = 0x80;

export const typeCode = (type: string): number => TYPE_CODE.get(type) ?? -1;
const T_MESSAGE = typeCode("message");

/** Everything a pass over the file learns. */
export interface SessionIndex {
  /** Rows, and the latest row per id (a later duplicate wins lookups). */
  table: IndexTable;
  labels: Map<string, string>;
  /** The latest `session_info` name, if any. */
  name: string | undefined;
  warnings: string[];
  skipped: number;
  appendOffset: number;
  needsNewline: boolean;
  /** Ids more than one entry carries. */
  duplicateIds: ReadonlySet<string>;
  /** Damaged entries left out (id → parentId): entries naming them as parent were relinked. */
  dropped: Map<string, string | null>;
}

const PREFIX_HEAD = Buffer.from('{"type":"message","id":"');
const PARENT = Buffer.from(',"parentId":');
const NULL = Buffer.from("null");
const TS = Buffer.from(',"timestamp":"');
const ROLE = Buffer.from(',"message":{"role":"');
const ROLES = ["user", "developer", "assistant", "toolResult", "bashExecution"].map((r) => Buffer.from(r + '"'));
const ROLE_FLAGS = [F_USER, 0, F_ASSISTANT, 0, 0];
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;

/** Byte-wise compare (the literals are short: cheaper than a native call per line). */
function startsAt(buf: Buffer, at: number, end: number, lit: Buffer): boolean {
  if (at + lit.length > end) return false;
  for (let i = 0; i < lit.length; i++) if (buf[at + i] !== lit[i]) return false;
  return true;
}

/** Index of the quote closing a JSON string starting at `at`; -1 when it holds escapes or runs out. */
function stringEnd(buf: Buffer, at: number, end: number): number {
  for (let i = at; i < end; i++) {
    const c = buf[i];
    if (c === QUOTE) return i;
    if (c === BACKSLASH || c < 0x20) return -1;
  }
  return -1;
}

/** Ids are compared as bytes: only ASCII ones (all that pith writes) take the fast path. */
function ascii(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] >= 0x80) return false;
  return true;
}

/** A JSON string's text without escapes: latin1 (a cheap copy) when it is ASCII. */
function plainString(buf: Buffer, from: number, to: number): string {
  for (let i = from; i < to; i++) if (buf[i] >= 0x80) return buf.toString("utf8", from, to);
  return buf.toString("latin1", from, to);
}

/** What the last successful `matchMessagePrefix` found (module scratch: no object per line). */
let fastIdFrom = 0;
let fastIdEnd = 0;
let fastRole = 0;
/** Bytes of the parent id in the line (-1: null); the string is made only when needed. */
let fastParentFrom = -1;
let fastParentEnd = -1;

/** Whether a line starts like a message line in pith's key order; its id, parentId, role land in the scratch fields. */
function matchMessagePrefix(buf: Buffer, start: number, end: number): boolean {
  if (!startsAt(buf, start, end, PREFIX_HEAD)) return false;
  let p = start + PREFIX_HEAD.length;
  const idEnd = stringEnd(buf, p, end);
  if (idEnd === -1 || !ascii(buf, p, idEnd)) return false;
  const idFrom = p;
  p = idEnd + 1;
  if (!startsAt(buf, p, end, PARENT)) return false;
  p += PARENT.length;
  let parentFrom = -1;
  let parentEnd = -1;
  if (startsAt(buf, p, end, NULL)) p += NULL.length;
  else if (buf[p] === QUOTE) {
    parentEnd = stringEnd(buf, p + 1, end);
    if (parentEnd === -1 || !ascii(buf, p + 1, parentEnd)) return false;
    parentFrom = p + 1;
    p = parentEnd + 1;
  } else return false;
  if (!startsAt(buf, p, end, TS)) return false;
  const tsEnd = stringEnd(buf, p + TS.length, end);
  if (tsEnd === -1 || !startsAt(buf, tsEnd + 1, end, ROLE)) return false;
  p = tsEnd + 1 + ROLE.length;
  fastRole = -1;
  for (let r = 0; r < ROLES.length && fastRole === -1; r++) if (startsAt(buf, p, end, ROLES[r])) fastRole = r;
  if (fastRole === -1) return false;
  fastIdFrom = idFrom;
  fastIdEnd = idEnd;
  fastParentFrom = parentFrom;
  fastParentEnd = parentEnd;
  return true;
}

/** id, parentId and role of a message line in pith's key order; undefined for anything else. */
export function scanMessagePrefix(buf: Buffer, start: number, end: number): { id: string; parentId: string | null; role: string } | undefined {
  if (!matchMessagePrefix(buf, start, end)) return undefined;
  const parentId = fastParentFrom === -1 ? null : plainString(buf, fastParentFrom, fastParentEnd);
  return { id: plainString(buf, fastIdFrom, fastIdEnd), parentId, role: ROLES[fastRole].toString("latin1", 0, ROLES[fastRole].length - 1) };
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch (err) {
    void err; // reported by the caller as a damaged line
    return undefined;
  }
}

/** The full text of a line (read again by offset when only its start was seen). */
function lineText(fd: number, buf: Buffer, start: number, end: number, offset: number, length: number, complete: boolean): string {
  if (complete) return buf.toString("utf8", start, end);
  const whole = Buffer.allocUnsafe(length);
  readFully(fd, whole, length, offset);
  return whole.toString("utf8");
}

/**
 * Indexes the entries of an open session file of `size` bytes (line 1, the header, is left to
 * the caller). Same leniency as a full load: damaged lines and entries are skipped, counted
 * and reported, children of a left-out entry hang from its nearest kept ancestor.
 */
export function indexSessionFile(fd: number, size: number, label: string, headerWarnings: readonly string[] = []): SessionIndex {
  // a row per ~1 kB of file is a typical session's density (messages with tool output)
  const table = new IndexTable(size / 1024);
  const labels = new Map<string, string>();
  const lineWarnings: string[] = [];
  const entryWarnings: string[] = [];
  /** Parent ids not (yet) seen when their child was indexed. */
  const unresolved = new Map<number, string>();
  const dropped = new Map<string, string | null>();
  let duplicates = false;
  let name: string | undefined;
  let lineNo = 0;
  let records = 0;
  let skipped = 0;
  let appendOffset = size;
  let needsNewline = false;

  // The parent is looked up as the child is indexed (parents come first in an append-only file);
  // duplicates, forward references and dropped entries are settled after the pass.
  const findable = (row: number): void => {
    if (table.setLatest(row) !== -1) duplicates = true;
  };
  const keep = (id: string, parentId: string | null, offset: number, length: number, kind: number): number => {
    const row = table.pushId(id, offset, length, kind, records);
    if (parentId !== null) {
      const p = table.latestOf(parentId);
      if (p === -1) unresolved.set(row, parentId);
      else table.parents[row] = p;
    }
    findable(row);
    return row;
  };

  scanLines(fd, size, (buf, start, end, offset, length, complete, lastByte, terminated) => {
    lineNo++;
    if (lineNo === 1) return;
    if (terminated && lastByte === CLOSE_BRACE && matchMessagePrefix(buf, start, end)) {
      records++;
      const row = table.push(buf, fastIdFrom, fastIdEnd, offset, length, T_MESSAGE | F_UNCHECKED | ROLE_FLAGS[fastRole], records);
      if (fastParentFrom !== -1) {
        // most entries hang from the entry just before them: no lookup, no string for those
        if (row > 0 && table.sameId(row - 1, buf, fastParentFrom, fastParentEnd)) table.parents[row] = row - 1;
        else {
          const p = table.latest(buf, fastParentFrom, fastParentEnd);
          if (p === -1) unresolved.set(row, plainString(buf, fastParentFrom, fastParentEnd));
          else table.parents[row] = p;
        }
      }
      findable(row);
      return;
    }
    const text = lineText(fd, buf, start, end, offset, length, complete);
    if (text.trim() === "") return;
    const obj = parseObject(text);
    if (!obj) {
      skipped++;
      if (!terminated) {
        lineWarnings.push(`${label}: line ${lineNo}: torn last line (${length} bytes) ignored`);
        appendOffset = offset;
      } else lineWarnings.push(`${label}: line ${lineNo}: not a JSON object, skipped`);
      return;
    }
    if (!terminated) needsNewline = true;
    const checked = checkRecord(obj, records++, label);
    if (!("entry" in checked)) {
      skipped++;
      entryWarnings.push(checked.warning);
      if (checked.dropped) dropped.set(checked.dropped.id, checked.dropped.parentId);
      return;
    }
    const e = checked.entry;
    const flags = e.type === "message" ? (e.message.role === "assistant" ? F_ASSISTANT : e.message.role === "user" ? F_USER : 0) : 0;
    const row = keep(e.id, e.parentId, offset, length, typeCode(e.type) | flags);
    if (e.type === "custom" || e.type === "custom_message") table.customTypes.set(row, e.customType);
    else if (e.type === "compaction") table.firstKept.set(row, e.firstKeptEntryId);
    else if (e.type === "label") {
      if (e.label) labels.set(e.targetId, e.label);
      else labels.delete(e.targetId);
    } else if (e.type === "session_info" && e.name) name = e.name;
  });

  const duplicateIds = new Set<string>();
  const dupWarnings = duplicates ? duplicateWarnings(table, duplicateIds) : [];
  if (duplicates || unresolved.size > 0 || dropped.size > 0) resolveParents(table, unresolved, dropped);
  return { table, labels, name, warnings: [...lineWarnings, ...headerWarnings, ...entryWarnings, ...dupWarnings], skipped, appendOffset, needsNewline, duplicateIds, dropped };
}

/** One warning per later occurrence of an id, in file order (as the full load words it). */
export function duplicateWarnings(table: IndexTable, ids: Set<string>): string[] {
  const out: string[] = [];
  for (let i = 0; i < table.n; i++) {
    const id = table.idOf(i);
    if (ids.has(id)) out.push(`duplicate entry id ${id}: the later entry wins lookups`);
    else if (table.latestOf(id) !== i) ids.add(id);
  }
  return out;
}

/**
 * Parents as a full load sees them: by the latest entry of an id, relinked over dropped entries,
 * and kept as written (dangling) when no entry has the id.
 */
export function resolveParents(table: IndexTable, unresolved: Map<number, string>, dropped: Map<string, string | null>): void {
  const keptAncestor = keptAncestorIn(dropped);
  for (let i = 0; i < table.n; i++) {
    const p = table.parents[i];
    let parentId = p >= 0 ? table.idOf(p) : (unresolved.get(i) ?? null);
    if (parentId === null) continue;
    if (dropped.has(parentId)) {
      parentId = keptAncestor(parentId);
      table.relinked.set(i, parentId);
    }
    const row = parentId === null ? -1 : table.latestOf(parentId);
    table.parents[i] = row;
    if (row === -1 && parentId !== null) table.dangling.set(i, parentId);
  }
}

/** Opens `abs` read-only, runs `fn`, closes. */
export function withReadFd<T>(abs: string, fn: (fd: number) => T): T {
  const fd = fs.openSync(abs, "r");
  try {
    return fn(fd);
  } finally {
    fs.closeSync(fd);
  }
}
