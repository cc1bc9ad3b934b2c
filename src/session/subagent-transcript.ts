// `get_subagent_messages` (oh-my-pi 18.3.4): a subagent's session read incrementally from a byte
// offset of its JSONL form. Only complete lines are returned; `nextByte` is where the next read
// starts, so a host polling a running subagent never sees a torn line twice or a line half. An
// offset past the end (the session was replaced) restarts from 0 with `reset: true`.
import type { AgentMessage } from "../shared/types.js";
import type { SessionStorage } from "../store/storage.js";

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

export async function readSubagentTranscript(storage: SessionStorage, sessionFile: string, fromByte = 0): Promise<SubagentTranscript> {
  const tail = await storage.readTail(sessionFile, fromByte);
  const entries: Array<Record<string, unknown>> = [];
  for (const line of tail.text.split("\n")) {
    if (line.trim() === "") continue;
    try {
      const v: unknown = JSON.parse(line);
      if (v !== null && typeof v === "object" && !Array.isArray(v)) entries.push(v as Record<string, unknown>);
    } catch (err) {
      void err; // a corrupt line is skipped, as when the session loads
    }
  }
  const messages = entries.filter((e) => e.type === "message" && e.message && typeof e.message === "object").map((e) => e.message as AgentMessage);
  return { sessionFile, fromByte: tail.fromByte, nextByte: tail.nextByte, reset: tail.reset, entries, messages };
}
