// `pith sessions import <folder>` and `pith sessions export <dir>`: sessions moved between JSONL
// files and the database with every entry's line kept byte for byte. Import stores each entry's
// line as the file has it (a current-format file; an older one is upgraded as a load upgrades it,
// and its lines are written anew); export writes the header and the lines back, one per line,
// into `<dir>/<cwd-slug>/<time>_<id>.jsonl`, the layout of PITH_HOME/sessions.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../../shared/errors.js";
import { PITH_SESSION_VERSION, type SessionEntry, type SessionHeader } from "../entry-types.js";
import { cwdSlug, newSessionFileName } from "../layout.js";
import { checkRecord, isHeaderRecord, migrate } from "../migrate.js";
import type { DbBridge } from "./bridge.js";
import { refOf } from "./db-log.js";
import { sessionRows } from "./entry-row.js";

export interface ImportResult {
  file: string;
  /** `pg:<id>` when imported. */
  ref?: string;
  entries: number;
  /** Why the file was not imported (not a session, already in the database, ...). */
  skipped?: string;
  /** Damaged lines left out, and upgrades made (the lines of an upgraded file are written anew). */
  notes: string[];
}

export interface ExportResult {
  ref: string;
  file: string;
  /** Why nothing was written (a different file is already there). */
  skipped?: string;
}

type Rec = Record<string, unknown>;

function parseObject(text: string): Rec | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Rec) : undefined;
  } catch (err) {
    void err; // a damaged line: reported by the caller
    return undefined;
  }
}

/** A session file as the database stores it: the header line and each kept entry with its line. */
function readSessionFile(file: string): { header: SessionHeader; headerLine: string; entries: SessionEntry[]; lines: string[]; notes: string[] } | string {
  const text = fs.readFileSync(file, "utf8");
  const raw = text.split("\n");
  if (raw[raw.length - 1] === "") raw.pop();
  const first = raw.length > 0 ? parseObject(raw[0]) : undefined;
  if (!first || !isHeaderRecord(first)) return "not a session file (its first line is not a session header)";
  const notes: string[] = [];
  const current = typeof first.version === "number" && first.version >= PITH_SESSION_VERSION;
  if (!current) {
    // older formats are upgraded as a load upgrades them (ids assigned, shapes renamed)
    const records = raw.slice(1).flatMap((l): Rec[] => {
      const o = parseObject(l);
      return o ? [o] : [];
    });
    const m = migrate(first, records, file);
    notes.push(`upgraded from session format ${String(first.version ?? 1)}: its lines are written anew`, ...m.warnings);
    return { header: m.header, headerLine: JSON.stringify(m.header), entries: m.entries, lines: m.entries.map((e) => JSON.stringify(e)), notes };
  }
  const entries: SessionEntry[] = [];
  const lines: string[] = [];
  let rec = 0;
  raw.slice(1).forEach((line, i) => {
    if (line.trim() === "") return;
    const obj = parseObject(line);
    if (!obj) {
      notes.push(`line ${i + 2}: not a JSON object, left out`);
      return;
    }
    const checked = checkRecord(obj, rec++, file);
    if ("entry" in checked) {
      entries.push(checked.entry);
      lines.push(line);
    } else notes.push(checked.warning);
  });
  const header = migrate(first, [], file).header;
  return { header, headerLine: raw[0], entries, lines, notes };
}

/** Imports one session file into group `dir` (default: its header's cwd). */
export function importSessionFile(bridge: DbBridge, file: string, dir?: string): ImportResult {
  let read: ReturnType<typeof readSessionFile>;
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
    read = readSessionFile(file);
  } catch (err) {
    return { file, entries: 0, skipped: `cannot be read: ${errorMessage(err)}`, notes: [] };
  }
  if (typeof read === "string") return { file, entries: 0, skipped: read, notes: [] };
  const { header, headerLine, entries, lines, notes } = read;
  const group = dir ?? path.resolve(header.cwd || "/");
  const { session, rows, bytes } = sessionRows(header, headerLine, group, entries, lines);
  const already = (): ImportResult => ({ file, entries: 0, skipped: `session ${header.id} is already in the database`, notes });
  if (bridge.call("where", [header.id]) !== undefined) return already();
  try {
    bridge.call("create", [session, rows, bytes, Math.round(mtimeMs)]);
  } catch (err) {
    if (err instanceof PithError && /already exists/.test(err.message)) return already();
    throw err;
  }
  return { file, ref: refOf(header.id), entries: rows.length, notes };
}

/** Every `*.jsonl` file under `folder`, in name order. */
export function sessionFilesUnder(folder: string): string[] {
  const st = fs.statSync(folder, { throwIfNoEntry: false });
  if (!st) throw new PithError("not_found", `No such folder: ${folder}`);
  if (st.isFile()) return [folder];
  return fs
    .readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".jsonl"))
    .sort()
    .map((f) => path.join(folder, f))
    .filter((f) => fs.statSync(f).isFile());
}

/** Writes every session of the database into `dir` (a file already there with other content is left alone). */
export function exportSessions(bridge: DbBridge, dir: string, each: (r: ExportResult) => void): void {
  const ids = bridge.call<string[]>("ids");
  for (const id of ids) {
    const got = bridge.call<{ header: string; dir: string; modifiedMs: number; lines: string[] } | undefined>("dump", [id]);
    if (!got) continue; // deleted meanwhile
    const created = Date.parse((JSON.parse(got.header) as { timestamp?: string }).timestamp ?? "");
    const file = path.join(dir, cwdSlug(got.dir), newSessionFileName(id, Number.isFinite(created) ? created : got.modifiedMs));
    const text = [got.header, ...got.lines].map((l) => l + "\n").join("");
    if (fs.existsSync(file) && fs.readFileSync(file, "utf8") !== text) {
      each({ ref: refOf(id), file, skipped: "a different file is already there" });
      continue;
    }
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    const when = new Date(got.modifiedMs);
    fs.utimesSync(file, when, when);
    each({ ref: refOf(id), file });
  }
}
