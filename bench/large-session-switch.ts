// Issue 19 item 5: switch_session to a ~104 MB session file (20,000 tool-using turns, 80,000
// messages) in a fresh `dist/cli.js` process, with a compaction every 1,000 turns and without
// any. Per run: the time from sending switch_session to its response, and the RSS above the
// idle process after it and at its peak (VmHWM, reset just before the command through
// /proc/<pid>/clear_refs so the startup peak does not count).
// Usage: npm run build && node --import tsx bench/large-session-switch.ts [runs=3] [turns=20000]
import { writeFileSync } from "node:fs";
import path from "node:path";
import { pith, tempCwd } from "./lib/agents.js";
import { writeLargeSession } from "./lib/large-session-pith.js";
import { AgentProc } from "./lib/proc.js";
import { makeTemp, removeTemps } from "./lib/temp.js";

const runs = Number(process.argv[2] ?? 3);
const turns = Number(process.argv[3] ?? 20000);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function once(file: string): Promise<{ ms: number; rss: number; peak: number; idle: number }> {
  const proc = new AgentProc(pith.launch({ llmUrl: "http://127.0.0.1:9/v1", cwd: tempCwd(), sessions: true }));
  try {
    await proc.request({ type: "get_state" }, 30_000);
    await sleep(1000); // let startup garbage settle
    const idle = proc.memMiB().rss;
    try {
      writeFileSync(`/proc/${proc.pid}/clear_refs`, "5");
    } catch {
      /* not permitted: the peak then includes startup */
    }
    const t0 = performance.now();
    const res = await proc.request({ type: "switch_session", sessionPath: file }, 120_000);
    const ms = performance.now() - t0;
    if (!res.success) throw new Error(`switch_session failed: ${res.error}`);
    const mem = proc.memMiB();
    return { ms, rss: mem.rss - idle, peak: mem.peak - idle, idle };
  } finally {
    await proc.close();
  }
}

const dir = makeTemp("bench-large-switch-");
for (const compactEvery of [1000, 0]) {
  const file = path.join(dir, `large-${compactEvery}.jsonl`);
  writeLargeSession(file, { turns, compactEvery, cwd: "/tmp" });
  const rows = [];
  for (let i = 0; i < runs; i++) rows.push(await once(file));
  const fmt = (xs: number[], d = 0) => xs.map((x) => x.toFixed(d)).join(", ");
  console.log(
    `${turns} turns, ${compactEvery ? `compaction every ${compactEvery} turns` : "no compaction"}: ` +
      `switch_session ${fmt(rows.map((r) => r.ms))} ms; RSS after +${fmt(rows.map((r) => r.rss), 1)} MiB; ` +
      `peak +${fmt(rows.map((r) => r.peak), 1)} MiB (idle ${fmt(rows.map((r) => r.idle), 1)} MiB)`,
  );
}
removeTemps();
