// A large session file in pith's format (version 3): `turns` tool-using turns (user, assistant
// with a tool call, tool result, assistant reply: 4 messages of ~1.3 kB each), with a compaction
// after every `compactEvery` turns (0: none) that keeps the turn before it. 20,000 turns make
// ~104 MB, 80,000 messages. `damage` garbles every n-th line (torn JSON) to exercise skipping.
import { randomBytes } from "node:crypto";
import { closeSync, openSync, writeSync } from "node:fs";

export interface LargeSessionOptions {
  turns: number;
  compactEvery: number;
  cwd: string;
  /** Every n-th entry line is written damaged (0: none). */
  damageEvery?: number;
}

const filler = (n: number, seed: number): string => {
  const words = ["const", "value", "return", "config", "field", "async", "await", "import", "export", "function", "string", "number"];
  const out: string[] = [];
  let len = 0;
  for (let i = 0; len < n; i++) {
    const w = words[(i * 7 + seed) % words.length];
    out.push(w);
    len += w.length + 1;
  }
  return out.join(" ");
};

function usage(input: number): object {
  return { input, output: 60, cacheRead: 0, cacheWrite: 0, totalTokens: input + 60, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

function turnMessages(i: number, t: number): object[] {
  const call = `call_${i}`;
  const base = { api: "openai-completions", provider: "fake-openai", model: "fake-gpt" };
  return [
    { role: "user", content: [{ type: "text", text: `Step ${i}: ${filler(220, i)}` }], timestamp: t },
    { role: "assistant", content: [{ type: "text", text: filler(300, i + 1) }, { type: "toolCall", id: call, name: "read", arguments: { path: `src/mod${i % 50}.ts` } }], ...base, usage: usage(1000 + i), stopReason: "toolUse", timestamp: t + 1 },
    { role: "toolResult", toolCallId: call, toolName: "read", content: [{ type: "text", text: filler(2600, i + 2) }], isError: false, timestamp: t + 2 },
    { role: "assistant", content: [{ type: "text", text: filler(700, i + 3) }], ...base, usage: usage(2000 + i), stopReason: "stop", timestamp: t + 3 },
  ];
}

/** Writes the file (streamed, never whole in memory); returns its entry count. */
export function writeLargeSession(file: string, o: LargeSessionOptions): number {
  const fd = openSync(file, "w");
  const t0 = Date.UTC(2026, 0, 1);
  const taken = new Set<string>();
  const newId = (): string => {
    let id = randomBytes(4).toString("hex");
    while (taken.has(id)) id = randomBytes(4).toString("hex");
    taken.add(id);
    return id;
  };
  let pending: string[] = [];
  let lines = 0;
  const put = (entry: object): void => {
    let line = JSON.stringify(entry);
    lines++;
    if (o.damageEvery && lines % o.damageEvery === 0) line = line.slice(0, Math.floor(line.length / 2));
    pending.push(line + "\n");
    if (pending.length >= 512) {
      writeSync(fd, pending.join(""));
      pending = [];
    }
  };
  put({ type: "session", version: 3, id: "0000000000000001", timestamp: new Date(t0).toISOString(), cwd: o.cwd });
  let parentId: string | null = null;
  let lastTurnStart = "";
  for (let i = 0; i < o.turns; i++) {
    const t = t0 + i * 10_000;
    for (const [k, message] of turnMessages(i, t).entries()) {
      const id = newId();
      if (k === 0) lastTurnStart = id;
      put({ type: "message", id, parentId, timestamp: new Date(t + k).toISOString(), message });
      parentId = id;
    }
    if (o.compactEvery > 0 && (i + 1) % o.compactEvery === 0 && i + 1 < o.turns) {
      const id = newId();
      put({ type: "compaction", id, parentId, timestamp: new Date(t + 5).toISOString(), summary: `Summary up to turn ${i}: ${filler(1500, i)}`, firstKeptEntryId: lastTurnStart, tokensBefore: 150_000 });
      parentId = id;
    }
  }
  if (pending.length > 0) writeSync(fd, pending.join(""));
  closeSync(fd);
  return lines - 1;
}
