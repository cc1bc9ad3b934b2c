// Where session files live: PITH_HOME/sessions/<cwd-slug>/<timestamp>_<id>.jsonl.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../shared/errors.js";

/** pi's legacy per-cwd folder name: `--<abs cwd, leading separator dropped, / \ : → ->--`. */
export function cwdSlug(cwd: string): string {
  const abs = path.resolve(cwd);
  return `--${abs.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** `<pithHome>/sessions/<cwdSlug(cwd)>`. */
export function sessionDirFor(pithHome: string, cwd: string): string {
  return path.join(pithHome, "sessions", cwdSlug(cwd));
}

/** `<ISO time with : and . → ->_<id>.jsonl`, e.g. `2026-02-16T10-20-30-123Z_0a1b2c3d4e5f6071.jsonl`. */
export function newSessionFileName(id: string, now: number | Date = Date.now()): string {
  const iso = new Date(now).toISOString().replace(/[:.]/g, "-");
  return `${iso}_${id}.jsonl`;
}

export interface SessionFileStat {
  file: string;
  size: number;
  mtimeMs: number;
}

/** `*.jsonl` files of `dir`, newest first; a missing dir has none. */
export function listSessionFiles(dir: string): SessionFileStat[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw new PithError("io", `Cannot list sessions in ${dir}: ${errorMessage(err)}`, { cause: err });
  }
  const out: SessionFileStat[] = [];
  for (const name of names) {
    if (!name.endsWith(".jsonl")) continue;
    const file = path.join(dir, name);
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (st?.isFile()) out.push({ file, size: st.size, mtimeMs: st.mtimeMs });
  }
  return out.sort((a, b) => b.mtimeMs - a.mtimeMs);
}

/** The first line of `file`, reading at most 1 MiB. */
function readFirstLine(file: string): string {
  const fd = fs.openSync(file, "r");
  try {
    const buf = Buffer.alloc(1 << 20);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const nl = buf.subarray(0, n).indexOf(0x0a);
    return buf.toString("utf8", 0, nl === -1 ? n : nl);
  } finally {
    fs.closeSync(fd);
  }
}

/** The parsed first line of `file` when it is a session header, else undefined. */
function readHeader(file: string): { id: string; cwd?: unknown } | undefined {
  try {
    const value = JSON.parse(readFirstLine(file)) as { type?: unknown; id?: unknown; cwd?: unknown } | null;
    return value?.type === "session" && typeof value.id === "string" ? { id: value.id, cwd: value.cwd } : undefined;
  } catch (err) {
    void err; // unreadable or not JSON: not a session
    return undefined;
  }
}

/** Whether the first line of `file` is a session header (reads at most 1 MiB). */
export function hasSessionHeader(file: string): boolean {
  return readHeader(file) !== undefined;
}

/** The most recently modified session file in `dir` (for `--continue`), or undefined. */
export function findMostRecentSession(dir: string): string | undefined {
  for (const c of listSessionFiles(dir)) if (hasSessionHeader(c.file)) return c.file;
  return undefined;
}

/**
 * `--session <arg>`: a path when it contains a separator or ends with `.jsonl` (resolved against
 * `cwd`), else a case-insensitive prefix of a session id / file name in `dir` (newest match wins).
 * With `sessionsRoot` (the folder holding every project's session folder), a match in another
 * project → PithError("invalid_request", `Session "<arg>" is in another project (<its cwd>).`).
 * No match → PithError("not_found", `Session "<arg>" not found.`).
 */
export function resolveSessionArg(arg: string, dir: string, cwd?: string, sessionsRoot?: string): string {
  if (arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl")) {
    return cwd === undefined ? path.resolve(arg) : path.resolve(cwd, arg);
  }
  const needle = arg.toLowerCase();
  if (needle !== "") {
    const here = matchPrefix(dir, needle);
    if (here) return here;
    const elsewhere = sessionsRoot === undefined ? undefined : matchInOtherProjects(sessionsRoot, path.resolve(dir), needle);
    if (elsewhere) {
      throw new PithError("invalid_request", `Session "${arg}" is in another project (${headerCwd(elsewhere) ?? path.dirname(elsewhere)}).`);
    }
  }
  throw new PithError("not_found", `Session "${arg}" not found.`);
}

function matchPrefix(dir: string, needle: string): string | undefined {
  for (const c of listSessionFiles(dir)) {
    const base = path.basename(c.file, ".jsonl").toLowerCase();
    const idPart = base.slice(base.lastIndexOf("_") + 1);
    if (base.startsWith(needle) || idPart.startsWith(needle)) return c.file;
  }
  return undefined;
}

function matchInOtherProjects(root: string, exclude: string, needle: string): string | undefined {
  let names: fs.Dirent[];
  try {
    names = fs.readdirSync(root, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new PithError("io", `Cannot list sessions in ${root}: ${errorMessage(err)}`, { cause: err });
  }
  for (const d of names) {
    const sub = path.join(root, d.name);
    if (!d.isDirectory() || sub === exclude) continue;
    const hit = matchPrefix(sub, needle);
    if (hit) return hit;
  }
  return undefined;
}

/** The `cwd` recorded in a session file's header, if readable. */
function headerCwd(file: string): string | undefined {
  const cwd = readHeader(file)?.cwd;
  return typeof cwd === "string" ? cwd : undefined;
}
