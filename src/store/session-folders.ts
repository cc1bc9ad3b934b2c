// The session files of a folder as `list_sessions` last saw them: one stat each (size, mtime) and
// the scan state kept for them. Statting 10,000 files costs ~30 ms, more than a cached listing may
// take, so on Linux a local folder listed with `watch` gets an inotify watcher and its next
// listings restat only the files it reported; a created, removed or renamed file, an error, or a
// folder that cannot be watched falls back to reading the folder and statting every file.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../shared/errors.js";
import type { ScanState } from "./session-scan.js";

/** One session file as last seen: its stat, and its scan (by size and mtime) once summarised. */
export interface Candidate {
  file: string;
  size: number;
  mtimeMs: number;
  state?: ScanState;
}

/** Files remembered per process (one per file seen). */
const MAX_CACHED = 100_000;
/** Folders watched at once (each holds a kernel watch); more are statted file by file. */
const MAX_WATCHED = 256;
/**
 * Only inotify queues an event before the write that caused it returns, which settleFolderEvents
 * relies on; FSEvents (macOS) batches events for ~50 ms, and a network file system never hears
 * of another machine's writes. Elsewhere every listing stats every file.
 */
const CAN_WATCH = process.platform === "linux";
/** statfs magic numbers of network and FUSE file systems (NFS, SMB, CIFS, SMB2, AFS, Ceph, FUSE). */
const REMOTE_FS = new Set([0x6969, 0x517b, 0xff534d42, 0xfe534d42, 0x5346414f, 0x00c36400, 0x65735546]);

function watchable(dir: string): boolean {
  if (!CAN_WATCH) return false;
  try {
    return !REMOTE_FS.has(fs.statfsSync(dir).type);
  } catch (err) {
    void err; // missing folder: nothing to watch
    return false;
  }
}

interface Folder {
  watcher: fs.FSWatcher;
  byFile: Map<string, Candidate>;
  files: Candidate[];
  /** Names reported changed since the last listing. */
  dirty: Set<string>;
  /** Set when the watcher reported something other than a change to a named file. */
  reset: boolean;
}

const files = new Map<string, Candidate>();
const watched = new Map<string, Folder>();

/** The candidate for `file` with a fresh stat (undefined when it is not a readable file). */
function statFile(file: string): { c: Candidate; moved: boolean } | undefined {
  let st: fs.Stats | undefined;
  try {
    st = fs.statSync(file, { throwIfNoEntry: false });
  } catch (err) {
    void err; // unreadable: not listed
    return undefined;
  }
  if (!st?.isFile()) return undefined;
  const known = files.get(file);
  if (known) {
    const moved = known.mtimeMs !== st.mtimeMs;
    known.size = st.size;
    known.mtimeMs = st.mtimeMs;
    return { c: known, moved };
  }
  if (files.size >= MAX_CACHED) files.delete(files.keys().next().value as string);
  const c: Candidate = { file, size: st.size, mtimeMs: st.mtimeMs };
  files.set(file, c);
  return { c, moved: true };
}

/** path.join for a resolved folder and a plain name, without normalising 10,000 paths. */
function childPath(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** The `*.jsonl` names of `dir`; `links` when one is a symlink (its target's writes raise no event here). */
function jsonlNames(dir: string): { names: string[]; links: boolean } {
  try {
    const names: string[] = [];
    let links = false;
    for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!d.name.endsWith(".jsonl")) continue;
      names.push(d.name);
      if (d.isSymbolicLink()) links = true;
    }
    return { names, links };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { names: [], links: false };
    throw new PithError("io", `Cannot list sessions in ${dir}: ${errorMessage(err)}`, { cause: err });
  }
}

function watch(dir: string): Folder | undefined {
  if (watched.size >= MAX_WATCHED || !watchable(dir)) return undefined;
  const folder: Folder = { watcher: undefined as unknown as fs.FSWatcher, byFile: new Map(), files: [], dirty: new Set(), reset: false };
  try {
    folder.watcher = fs.watch(dir, { persistent: false }, (event, name) => {
      if (event === "change" && typeof name === "string" && name !== "") folder.dirty.add(name);
      else folder.reset = true;
    });
  } catch (err) {
    void err; // missing folder, no watches left: statted file by file
    return undefined;
  }
  folder.watcher.on("error", () => (folder.reset = true));
  watched.set(dir, folder);
  return folder;
}

function unwatch(dir: string): void {
  watched.get(dir)?.watcher.close();
  watched.delete(dir);
}

/** Restats the files the watcher named; false when nothing of the order changed. */
function refresh(dir: string, folder: Folder): boolean {
  let moved = false;
  for (const name of folder.dirty) {
    if (!name.endsWith(".jsonl")) continue;
    const file = childPath(dir, name);
    const hit = statFile(file);
    if (hit?.moved || hit?.c !== folder.byFile.get(file)) moved = true;
    if (hit) folder.byFile.set(file, hit.c);
    else folder.byFile.delete(file);
  }
  folder.dirty.clear();
  if (moved) folder.files = [...folder.byFile.values()];
  return moved;
}

/**
 * The session file candidates of `dir` (unsorted) and whether any was added, removed or touched
 * since the last call. With `watch`, the caller has let queued watcher events run first (see
 * settleFolderEvents), so an unreported file is unchanged.
 */
export function folderCandidates(dir: string, useWatch: boolean): { files: Candidate[]; moved: boolean } {
  let folder: Folder | undefined;
  if (useWatch) {
    folder = watched.get(dir);
    if (folder && !folder.reset) {
      const moved = folder.dirty.size > 0 && refresh(dir, folder);
      return { files: folder.files, moved };
    }
    // (re)start watching before reading, so that a change during the read is reported
    unwatch(dir);
    folder = watch(dir);
  }
  let names: string[];
  try {
    const listed = jsonlNames(dir);
    names = listed.names;
    if (listed.links && folder) {
      unwatch(dir);
      folder = undefined;
    }
  } catch (err) {
    unwatch(dir);
    throw err;
  }
  const out: Candidate[] = [];
  let moved = false;
  for (const name of names) {
    const hit = statFile(childPath(dir, name));
    if (!hit) continue;
    out.push(hit.c);
    if (hit.moved) moved = true;
  }
  if (folder) {
    folder.files = out;
    folder.byFile = new Map(out.map((c) => [c.file, c]));
  }
  return { files: out, moved };
}

/**
 * Resolves once the watcher events already queued have run: an event the kernel queued before a
 * request arrived is read by the same poll as the request, or by the next one, and two
 * setImmediate turns span the rest of this poll and the whole next one.
 */
export async function settleFolderEvents(): Promise<void> {
  if (watched.size === 0) return;
  await new Promise((resolve) => setImmediate(resolve));
  await new Promise((resolve) => setImmediate(resolve));
}

/** Forget every file and stop every watcher (tests, benchmarks). */
export function clearSessionFolders(): void {
  files.clear();
  for (const dir of [...watched.keys()]) unwatch(dir);
}
