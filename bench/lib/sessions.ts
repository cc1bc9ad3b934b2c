// Session files of N turns (user message + assistant reply, 2 entries per turn), written in each
// agent's own on-disk format: pith's (version 1, snowflake session id) and pi's (version 3,
// UUID session id). Same content for both, so switch_session compares like with like.
import { randomBytes, randomUUID } from "node:crypto";
import { writeFileSync } from "node:fs";
import path from "node:path";
import type { AgentName } from "./agents.js";

function pithSessionId(): string {
  const ms = BigInt(Date.now() - Date.UTC(2015, 0, 1));
  return ((ms << 22n) | BigInt(randomBytes(3).readUIntBE(0, 3) & 0x3fffff)).toString(16).padStart(16, "0").slice(-16);
}

function header(agent: AgentName, cwd: string, t0: number): object {
  const id = agent === "pith" ? pithSessionId() : randomUUID();
  return { type: "session", version: agent === "pith" ? 1 : 3, id, timestamp: new Date(t0).toISOString(), cwd };
}

function usage(input: number, output: number): object {
  return { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}

function turnMessages(i: number, t: number): [object, object] {
  const user = { role: "user", content: [{ type: "text", text: `Question number ${i}: what does function f${i} in src/mod${i % 50}.ts do?` }], timestamp: t };
  const assistant = {
    role: "assistant",
    content: [{ type: "text", text: `f${i} reads the configuration, validates field ${i % 17} and returns the normalised value. It has no side effects.` }],
    api: "openai-completions",
    provider: "fake-openai",
    model: "fake-gpt",
    usage: usage(40 + i, 30),
    stopReason: "stop",
    timestamp: t + 1,
  };
  return [user, assistant];
}

/** Writes `<dir>/<agent>-<turns>.jsonl` and returns its path. */
export function writeSession(agent: AgentName, dir: string, cwd: string, turns: number): string {
  const t0 = Date.now() - turns * 1000;
  const lines: string[] = [JSON.stringify(header(agent, cwd, t0))];
  const taken = new Set<string>();
  let parentId: string | null = null;
  for (let i = 0; i < turns; i++) {
    const t = t0 + i * 1000;
    for (const message of turnMessages(i, t)) {
      let id = randomBytes(4).toString("hex");
      while (taken.has(id)) id = randomBytes(4).toString("hex");
      taken.add(id);
      lines.push(JSON.stringify({ type: "message", id, parentId, timestamp: new Date(t).toISOString(), message }));
      parentId = id;
    }
  }
  const file = path.join(dir, `${agent}-${turns}.jsonl`);
  writeFileSync(file, lines.join("\n") + "\n");
  return file;
}
