// A ~100 MB session file (issue 19, item 5): 20,000 tool-using turns of 4 messages each (user
// question, assistant `read` call, a tool result of ~4 KB, assistant answer) = 80,000 messages,
// optionally with a compaction entry after every 1,000th turn. Written in each agent's own format
// with the same content (same entry ids, texts and timestamps) so the agents load like for like:
// pith and pi write a version-3 header (pith a snowflake id, pi a UUID); oh-my-pi 18 puts its
// fixed-width 256-byte title slot line before the header (session-title-slot.ts) and uses a UUID.
// Lines are streamed to the file in batches, so writing takes a second or two, not a 100 MB string.
import { createHash, randomUUID } from "node:crypto";
import { closeSync, openSync, statSync, writeSync } from "node:fs";
import path from "node:path";

export type SessionFormat = "pith" | "pi" | "omp";

export interface LargeSessionShape {
  turns: number;
  /** A compaction entry after every `compactEvery` turns (none when undefined). */
  compactEvery?: number;
  /** Turns before each compaction that it keeps (its firstKeptEntryId is the first of them). */
  keptTurns?: number;
}

export interface LargeSession {
  file: string;
  bytes: number;
  /** Message entries in the file. */
  messages: number;
  /** Messages of the model's context after loading: what get_messages must return. */
  contextMessages: number;
  /** sha256 of the file as written (an agent may append to it, e.g. pi a thinking_level_change). */
  sha256: string;
}

export const LARGE_SHAPE: LargeSessionShape = { turns: 20_000, keptTurns: 10 };
const T0 = Date.UTC(2026, 0, 1);

function snowflakeId(): string {
  const ms = BigInt(Date.now() - Date.UTC(2015, 0, 1));
  return ((ms << 22n) | BigInt(Math.floor(Math.random() * 0x3fffff))).toString(16).padStart(16, "0").slice(-16);
}

/** Deterministic unique 8-hex entry id (Knuth's multiplicative hash is a bijection on uint32). */
function entryId(n: number): string {
  return (Math.imul(n + 1, 0x9e3779b1) >>> 0).toString(16).padStart(8, "0");
}

/** omp's title slot: the JSON line padded with spaces to exactly 256 bytes including "\n". */
function ompTitleSlot(updatedAt: string): string {
  const bare = JSON.stringify({ type: "title", v: 1, title: "", updatedAt, pad: "" });
  return JSON.stringify({ type: "title", v: 1, title: "", updatedAt, pad: " ".repeat(255 - bare.length) }) + "\n";
}

function headerLines(format: SessionFormat, cwd: string): string {
  const timestamp = new Date(T0).toISOString();
  const header = { type: "session", version: 3, id: format === "pith" ? snowflakeId() : randomUUID(), timestamp, cwd };
  return (format === "omp" ? ompTitleSlot(timestamp) : "") + JSON.stringify(header) + "\n";
}

const usage = (input: number, output: number) => ({
  input,
  output,
  cacheRead: 0,
  cacheWrite: 0,
  totalTokens: input + output,
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
});

function assistant(content: object[], stopReason: string, i: number, t: number): object {
  return { role: "assistant", content, api: "openai-completions", provider: "fake-openai", model: "fake-gpt", usage: usage(900 + i, 40), stopReason, timestamp: t };
}

/** ~4 KB of source text, different for every turn. */
function fileText(i: number): string {
  const lines: string[] = [`// src/mod${i % 50}.ts, as read at turn ${i}`];
  for (let k = 0; k < 52; k++) lines.push(`export function f${i}_${k}(x: number): number { return x * ${k} + ${i % 97}; }`);
  return lines.join("\n");
}

function turnMessages(i: number): object[] {
  const t = T0 + i * 4000;
  const callId = `call_${i.toString(36)}`;
  const file = `src/mod${i % 50}.ts`;
  return [
    { role: "user", content: [{ type: "text", text: `Turn ${i}: what does f${i} in ${file} return for x = ${i % 13}?` }], timestamp: t },
    assistant([{ type: "toolCall", id: callId, name: "read", arguments: { path: file } }], "toolUse", i, t + 1000),
    { role: "toolResult", toolCallId: callId, toolName: "read", content: [{ type: "text", text: fileText(i) }], isError: false, timestamp: t + 2000 },
    assistant([{ type: "text", text: `f${i}_0 returns ${i % 97} for any x; the other functions of ${file} scale x first.` }], "stop", i, t + 3000),
  ];
}

/** The context after the last compaction: its summary, the kept turns, every turn after it. */
export function contextMessageCount(shape: LargeSessionShape): number {
  const every = shape.compactEvery;
  if (!every || shape.turns <= every) return shape.turns * 4;
  const lastCompactionAfter = Math.floor((shape.turns - 1) / every) * every;
  return 1 + (shape.keptTurns ?? 0) * 4 + (shape.turns - lastCompactionAfter) * 4;
}

/** Writes `<dir>/<format>-large.jsonl`; the cwd named in the header must exist for the agents to adopt it. */
export function writeLargeSession(format: SessionFormat, dir: string, cwd: string, shape: LargeSessionShape = LARGE_SHAPE): LargeSession {
  const file = path.join(dir, `${format}-large${shape.compactEvery ? "-compacted" : ""}.jsonl`);
  const fd = openSync(file, "w");
  const hash = createHash("sha256");
  const write = (text: string): void => {
    writeSync(fd, text);
    hash.update(text);
  };
  let n = 0;
  let parentId: string | null = null;
  const turnStart: string[] = [];
  let batch = headerLines(format, cwd);
  const push = (type: string, body: object, t: number): void => {
    const id = entryId(n++);
    batch += JSON.stringify({ type, id, parentId, timestamp: new Date(t).toISOString(), ...body }) + "\n";
    parentId = id;
  };
  try {
    for (let i = 0; i < shape.turns; i++) {
      turnStart.push(entryId(n));
      for (const message of turnMessages(i)) push("message", { message }, (message as { timestamp: number }).timestamp);
      const every = shape.compactEvery;
      if (every && (i + 1) % every === 0 && i + 1 < shape.turns) {
        const summary = `## Goal\nAnswer questions about src/.\n## Progress\nTurns up to ${i} read ${every} files and answered each question.\n` + "- f returns a constant\n".repeat(80);
        const firstKeptEntryId = turnStart[Math.max(0, i + 1 - (shape.keptTurns ?? 0))] ?? turnStart[i];
        push("compaction", { summary, firstKeptEntryId, tokensBefore: 900 + i }, T0 + i * 4000 + 3500);
      }
      if (batch.length > 1 << 20) {
        write(batch);
        batch = "";
      }
    }
    write(batch);
  } finally {
    closeSync(fd);
  }
  return { file, bytes: statSync(file).size, messages: shape.turns * 4, contextMessages: contextMessageCount(shape), sha256: hash.digest("hex") };
}
