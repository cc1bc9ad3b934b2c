// `get_subagent_messages` (oh-my-pi 18.3.4): a subagent's session file read incrementally from a
// byte offset. Only complete lines are returned; `nextByte` is where the next read starts, so a
// host polling a running subagent never sees a torn line twice or a line half. An offset past
// the end (the file was replaced) restarts from 0 with `reset: true`.
import { open, stat } from "node:fs/promises";
import type { AgentMessage } from "../shared/types.js";

export interface SubagentTranscript {
  sessionFile: string;
  fromByte: number;
  nextByte: number;
  reset: boolean;
  /** Every parsed line from fromByte on (the header too when fromByte is 0). */
  entries: Array<Record<string, unknown>>;
  /** The `message` entries' messages. */
  messages: AgentMessage[];
}

export async function readSubagentTranscript(sessionFile: string, fromByte = 0): Promise<SubagentTranscript> {
  let start = Number.isFinite(fromByte) ? Math.max(0, Math.trunc(fromByte)) : 0;
  let size: number;
  try {
    size = (await stat(sessionFile)).size;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
    return { sessionFile, fromByte: start, nextByte: start, reset: false, entries: [], messages: [] };
  }
  let reset = false;
  if (start > size) {
    start = 0;
    reset = true;
  }
  let buf = Buffer.alloc(0);
  if (start < size) {
    const fh = await open(sessionFile, "r");
    try {
      buf = Buffer.alloc(size - start);
      const { bytesRead } = await fh.read(buf, 0, buf.length, start);
      buf = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }
  // Cut at the last LF (a byte, so the cut never splits a UTF-8 character).
  const complete = buf.subarray(0, buf.lastIndexOf(0x0a) + 1);
  const entries: Array<Record<string, unknown>> = [];
  for (const line of complete.toString("utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v: unknown = JSON.parse(line);
      if (v !== null && typeof v === "object" && !Array.isArray(v)) entries.push(v as Record<string, unknown>);
    } catch (err) {
      void err; // a corrupt line is skipped, as when the session loads
    }
  }
  const messages = entries.filter((e) => e.type === "message" && e.message && typeof e.message === "object").map((e) => e.message as AgentMessage);
  return { sessionFile, fromByte: start, nextByte: start + complete.length, reset, entries, messages };
}
