// `delete_session`: removes a session file, refusing anything that is open (in this process or
// another) and anything that is not a pith session file.
import fs from "node:fs";
import path from "node:path";
import { PithError, errorMessage } from "../shared/errors.js";
import { hasSessionHeader } from "./layout.js";
import { lockHolder } from "./lock.js";

/** Deletes `file` (absolute, or relative to `cwd`); resolves with the absolute path deleted. */
export function deleteSessionFile(file: string, cwd: string): string {
  if (typeof file !== "string" || file.trim() === "") {
    throw new PithError("invalid_request", 'Invalid "sessionPath": expected a non-empty string');
  }
  const abs = path.resolve(cwd, file);
  const st = fs.lstatSync(abs, { throwIfNoEntry: false });
  if (!st) throw new PithError("not_found", `Session file not found: ${abs}`);
  if (!st.isFile()) throw new PithError("invalid_request", `Not a session file (not a regular file): ${abs}`);
  if (!abs.endsWith(".jsonl") || !hasSessionHeader(abs)) {
    throw new PithError("invalid_request", `Not a session file (first line is not a session header): ${abs}`);
  }
  const holder = lockHolder(abs);
  if (holder === process.pid) throw new PithError("busy", `Session is open in this process; close it first: ${abs}`);
  if (holder !== undefined) throw new PithError("busy", `Session is open in another pith process (pid ${holder}): ${abs}`);
  try {
    fs.unlinkSync(abs);
    fs.rmSync(`${abs}.lock`, { force: true });
  } catch (err) {
    throw new PithError("io", `Cannot delete session file ${abs}: ${errorMessage(err)}`, { cause: err });
  }
  return abs;
}
