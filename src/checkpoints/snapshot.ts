// Writes the tree of the folder as it is now, reusing a session's index as a stat cache.
//
// The session's saved index gets a private temporary name (a hard link) for each snapshot, and the
// index git writes there is renamed back only after a checkpoint commit and ref exist for it (`keep`). So no two git runs ever share
// an index (no index.lock contention between sessions or processes), a crashed run leaves at
// worst a stale *.tmp file, and a saved index always describes a commit that a ref still holds:
// retention can prune unreachable objects without pulling blobs from under a later snapshot.
// An index older than the freshness window is not reused (its commit may be due for pruning).
import { randomBytes } from "node:crypto";
import { copyFile, link, open, rename, stat, unlink, utimes } from "node:fs/promises";
import { join } from "node:path";
import { CheckpointError } from "./errors.js";
import type { GitContext } from "./git-runner.js";
import { joinNul, runGit } from "./git-runner.js";
import { scanChanges } from "./scan.js";
import type { SkippedFiles } from "./types.js";

export interface SnapshotOptions {
  indexDir: string;
  indexName: string;
  pathspecs: string[];
  maxFileBytes: number;
  maxFiles: number;
  /** A saved index last written before this time (ms) is not reused. */
  reuseIndexSince: number;
  /** What the last `keep` of this index returned: lets an unchanged folder skip `write-tree`. */
  lastTree?: IndexTree;
  signal?: AbortSignal;
}

/** A saved index (identified by inode, mtime and size) and the tree it wrote. */
export interface IndexTree {
  tree: string;
  stamp: string;
}

export interface Snapshot {
  tree: string;
  files: number;
  skipped: SkippedFiles;
  /** Saves the snapshot's index as the session's (call once its checkpoint is committed). */
  keep(): Promise<IndexTree | undefined>;
  /** Drops the temporary index. */
  discard(): Promise<void>;
}

/** `undefined` when the folder holds more than `maxFiles` files. */
export async function takeSnapshot(git: GitContext, opts: SnapshotOptions): Promise<Snapshot | undefined> {
  const saved = join(opts.indexDir, opts.indexName);
  const tmp = `${saved}.${randomBytes(6).toString("hex")}.tmp`;
  const discard = () => unlink(tmp).catch((err: NodeJS.ErrnoException) => ignoreMissing(err));
  try {
    const stamp = await linkFreshIndex(saved, tmp, opts.reuseIndexSince);
    const scan = await scanChanges(git, { indexFile: tmp, pathspecs: opts.pathspecs, maxFileBytes: opts.maxFileBytes, maxFiles: opts.maxFiles, signal: opts.signal });
    if (!scan) {
      await discard();
      return undefined;
    }
    if (scan.forceRemove.length > 0) {
      await runGit(git, ["update-index", "--force-remove", "-z", "--stdin"], { indexFile: tmp, input: joinNul(scan.forceRemove), signal: opts.signal });
    }
    scan.skipped.unreadable.push(...(await updateIndex(git, tmp, scan.update, opts.signal)));
    const unchanged = scan.update.length === 0 && scan.forceRemove.length === 0 && stamp !== undefined && opts.lastTree?.stamp === stamp;
    const tree = unchanged ? opts.lastTree!.tree : (await runGit(git, ["write-tree"], { indexFile: tmp, signal: opts.signal })).stdout.toString("utf8").trim();
    const files = await indexEntryCount(tmp);
    return { tree, files, skipped: scan.skipped, keep: () => keepIndex(tmp, saved, tree), discard };
  } catch (err) {
    await discard();
    throw err;
  }
}

/** Saves the snapshot's index; when git never rewrote it, `tmp` is still a link to `saved` and only goes. */
async function keepIndex(tmp: string, saved: string, tree: string): Promise<IndexTree | undefined> {
  await rename(tmp, saved).catch((err: NodeJS.ErrnoException) => ignoreMissing(err));
  await unlink(tmp).catch((err: NodeJS.ErrnoException) => ignoreMissing(err));
  try {
    return { tree, stamp: stampOf(await stat(saved)) };
  } catch (err) {
    ignoreMissing(err as NodeJS.ErrnoException);
    return undefined; // an empty folder has no index file
  }
}

function stampOf(st: { ino: number; mtimeMs: number; size: number }): string {
  return `${st.ino}:${st.mtimeMs}:${st.size}`;
}

/**
 * From this many files on, new blobs go into one pack file (git's bulk check-in, which
 * `core.bigFileThreshold=1` turns on for every blob) instead of one loose file each: 5x faster
 * for a first checkpoint here. Fewer stay loose, so small checkpoints do not pile up packs.
 * Before git 2.37 update-index did not batch them (one pack per blob), so it is not used there.
 */
const PACK_FROM = 64;

/** git dies naming the one path it could not read; that path is dropped and the rest retried. */
const UNPROCESSABLE = /Unable to process path (.+)$/m;
const MAX_UNREADABLE = 50;

async function updateIndex(git: GitContext, indexFile: string, paths: string[], signal?: AbortSignal): Promise<string[]> {
  const unreadable: string[] = [];
  let remaining = paths;
  while (remaining.length > 0) {
    try {
      const pack = git.bulkCheckin && remaining.length >= PACK_FROM ? ["-c", "core.bigFileThreshold=1"] : [];
      await runGit(git, [...pack, "update-index", "--add", "--remove", "--replace", "-z", "--stdin"], { indexFile, input: joinNul(remaining), signal });
      return unreadable;
    } catch (err) {
      const bad = err instanceof CheckpointError ? unprocessablePath(err.message) : undefined;
      if (!bad || !remaining.includes(bad) || unreadable.length >= MAX_UNREADABLE) throw err;
      unreadable.push(bad);
      remaining = remaining.filter((p) => p !== bad);
    }
  }
  return unreadable;
}

/** The path in git's "Unable to process path X" message, if any. */
export function unprocessablePath(message: string): string | undefined {
  return UNPROCESSABLE.exec(message)?.[1];
}

/**
 * Gives the snapshot its own name for the saved index. A hard link keeps the file's mtime, which
 * git's racy-clean check relies on (entries not older than the index file are re-hashed); git
 * replaces the file by rename when it writes, so the saved index itself is never modified.
 */
async function linkFreshIndex(saved: string, tmp: string, since: number): Promise<string | undefined> {
  try {
    const st = await stat(saved);
    if (st.mtimeMs < since) return undefined;
    await link(saved, tmp).catch(async (err: NodeJS.ErrnoException) => {
      if (err.code !== "EPERM" && err.code !== "ENOTSUP" && err.code !== "EXDEV") throw err;
      await copyFile(saved, tmp);
      const mtime = Math.floor(st.mtimeMs) / 1000; // never later than the original
      await utimes(tmp, mtime, mtime);
    });
    return stampOf(st);
  } catch (err) {
    ignoreMissing(err as NodeJS.ErrnoException);
    return undefined;
  }
}

/** The entry count in an index file's header ("DIRC", version, count; all big-endian). */
async function indexEntryCount(file: string): Promise<number> {
  let handle;
  try {
    handle = await open(file, "r");
  } catch (err) {
    ignoreMissing(err as NodeJS.ErrnoException);
    return 0; // git writes no index for an empty folder
  }
  try {
    const header = Buffer.alloc(12);
    const { bytesRead } = await handle.read(header, 0, 12, 0);
    return bytesRead === 12 && header.toString("latin1", 0, 4) === "DIRC" ? header.readUInt32BE(8) : 0;
  } finally {
    await handle.close();
  }
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== "ENOENT") throw err;
}
