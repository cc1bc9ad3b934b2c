// The stand-ins for protected paths that do not exist yet (see protection-plan.ts): created by
// pith just before a sandboxed process starts, so bubblewrap can bind them read-only, and removed
// once no sandbox of this process needs them (its sessions ended, or pith exits). One registry
// for the whole process: several sessions (and subagents) share a cwd and its stand-ins, and a
// stand-in must not go while another sandbox still has it mounted (removing a mount point on the
// host detaches that mount inside every sandbox).
//
// A stand-in pith cannot create (no permission, a read-only file system) is left out of the
// mounts: the sandbox, which never has more rights than pith, cannot create that path either.
import { mkdirSync, readFileSync, rmdirSync, unlinkSync, writeFileSync } from "node:fs";
import type { ProtectedEntry } from "./protection-plan.js";

interface StandIn {
  kind: "dir" | "file";
  content: string;
  holders: Set<object>;
}

const standIns = new Map<string, StandIn>();

function create(entry: ProtectedEntry): "created" | "exists" | "failed" {
  try {
    if (entry.kind === "dir") mkdirSync(entry.path);
    else writeFileSync(entry.path, entry.content ?? "", { flag: "wx" });
    return "created";
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EEXIST" ? "exists" : "failed";
  }
}

/**
 * Makes sure every entry exists (creating stand-ins for the missing ones, held by `holder`);
 * answers the entries to mount.
 */
export function placeStandIns(entries: readonly ProtectedEntry[], holder: object): ProtectedEntry[] {
  const mount: ProtectedEntry[] = [];
  for (const entry of entries) {
    const ours = standIns.get(entry.path);
    if (entry.exists) {
      ours?.holders.add(holder);
      mount.push(entry);
      continue;
    }
    const made = create(entry);
    if (made === "failed") continue;
    if (made === "created") standIns.set(entry.path, { kind: entry.kind, content: entry.content ?? "", holders: new Set([holder]) });
    else standIns.get(entry.path)?.holders.add(holder);
    mount.push({ ...entry, exists: true });
  }
  return mount;
}

/** Removes a stand-in if it is still what pith made (an empty folder, or the file as written). */
function remove(path: string, s: StandIn): void {
  try {
    if (s.kind === "dir") rmdirSync(path);
    else if (readFileSync(path, "utf8") === s.content) unlinkSync(path);
  } catch (err) {
    // ENOTEMPTY / ENOENT: the user filled or removed it meanwhile; it is theirs now.
    if (!["ENOTEMPTY", "EEXIST", "ENOENT", "ENOTDIR", "EISDIR", "EBUSY"].includes((err as NodeJS.ErrnoException).code ?? "")) throw err;
  }
}

/** Inner stand-ins go before the folders holding them. */
function deepestFirst(): Array<[string, StandIn]> {
  return [...standIns].sort(([a], [b]) => b.length - a.length);
}

/** `holder` (a sandbox) no longer needs its stand-ins; those nobody holds are removed. */
export function releaseStandIns(holder: object): void {
  for (const [path, s] of deepestFirst()) {
    if (!s.holders.delete(holder) || s.holders.size > 0) continue;
    standIns.delete(path);
    remove(path, s);
  }
}

/** Removes every stand-in (the process "exit" handler calls it); never throws. */
export function removeAllStandInsSync(): string[] {
  const failed: string[] = [];
  for (const [path, s] of deepestFirst()) {
    try {
      remove(path, s);
    } catch (err) {
      failed.push(`${path}: ${(err as Error).message}`);
    }
  }
  standIns.clear();
  return failed;
}

/** The stand-ins this process holds now (tests). */
export function heldStandIns(): string[] {
  return [...standIns.keys()];
}
