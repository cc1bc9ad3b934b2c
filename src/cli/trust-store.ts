// Saved project-trust decisions: `PITH_HOME/trust.json` in pi's shape, one JSON object mapping a
// canonical folder path to `true` (trusted), `false` (not trusted) or `null` (no decision). The
// decision saved for a folder applies to every folder inside it unless a closer one says otherwise.
// Writes take `<file>.lock` (O_EXCL, holding the writer's pid) and replace the file atomically, so
// two processes saving at once lose nothing and a reader never sees half a file.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync, constants } from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../shared/errors.js";
import { pidAlive } from "../shared/pid-alive.js";

/** The file's content: canonical folder → decision. */
export type TrustDecisions = Record<string, boolean | null>;

export function trustFilePath(pithHome: string): string {
  return path.join(pithHome, "trust.json");
}

/** Reads the decisions; a missing file is none. A damaged file throws a `config` PithError naming it. */
export function readTrustFile(file: string): TrustDecisions {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new PithError("config", `Cannot read ${file}: ${errorMessage(err)}`, { cause: err });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (err) {
    throw new PithError("config", `Invalid JSON in ${file}: ${errorMessage(err)}`, { cause: err });
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new PithError("config", `Invalid ${file}: expected an object mapping folders to true, false or null`);
  }
  const out: TrustDecisions = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (value !== true && value !== false && value !== null) {
      throw new PithError("config", `Invalid ${file}: the value for ${JSON.stringify(key)} must be true, false or null`);
    }
    out[key] = value;
  }
  return out;
}

/** The decision saved for `folder` (canonical) or its closest parent, if any. */
export function closestDecision(decisions: TrustDecisions, folder: string): { path: string; decision: boolean } | undefined {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const value = Object.hasOwn(decisions, dir) ? decisions[dir] : undefined;
    if (value === true || value === false) return { path: dir, decision: value };
    if (path.dirname(dir) === dir) return undefined;
  }
}

/** Records `decision` for `folder` (canonical), keeping every other entry; keys sorted as pi writes them. */
export async function saveTrustDecision(file: string, folder: string, decision: boolean): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const lock = await takeLock(`${file}.lock`);
  try {
    const decisions = readTrustFile(file);
    decisions[folder] = decision;
    const sorted: TrustDecisions = {};
    for (const key of Object.keys(decisions).sort()) sorted[key] = decisions[key]!;
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(sorted, null, 2)}\n`, { mode: 0o600 });
    renameSync(tmp, file);
  } finally {
    releaseLock(lock);
  }
}

const LOCK_ATTEMPTS = 50;
const LOCK_RETRY_MS = 20;

/** Takes `<file>.lock`; a lock whose writer is gone is taken over, a live one is waited for (about 1 s). */
async function takeLock(lock: string): Promise<string> {
  for (let attempt = 0; attempt < LOCK_ATTEMPTS; attempt++) {
    try {
      const fd = openSync(lock, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY, 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return lock;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw new PithError("io", `Cannot lock ${lock}: ${errorMessage(err)}`, { cause: err });
    }
    if (!ownerAlive(lock)) {
      releaseLock(lock);
      continue;
    }
    await new Promise((r) => setTimeout(r, LOCK_RETRY_MS));
  }
  throw new PithError("busy", `${lock} is held by another process; try again`);
}

function ownerAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number.parseInt(readFileSync(lock, "utf8"), 10);
  } catch (err) {
    // gone between our attempt and this read: free again
    return (err as NodeJS.ErrnoException).code !== "ENOENT";
  }
  // a lock being written this instant has no pid yet: treat it as live
  return !Number.isInteger(pid) || pid <= 0 || pidAlive(pid);
}

function releaseLock(lock: string): void {
  try {
    unlinkSync(lock);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw new PithError("io", `Cannot remove ${lock}: ${errorMessage(err)}`, { cause: err });
  }
}
