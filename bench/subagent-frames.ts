// What oh-my-pi's subagent frames cost (issue 23), pith only: one `task` call whose subagent
// streams DELTAS text deltas, at each set_subagent_subscription level. Figures per level: wall
// (prompt → agent_end), agent CPU, stdout bytes, and the subagent_* frames written by type.
// Alone: `npm run build && node --import tsx bench/subagent-frames.ts` (SUB_DELTAS, SUB_REPS).
import { startFakeLlmServer } from "../test/support/fake-llm-server.js";
import { pith, tempCwd } from "./lib/agents.js";
import { AgentProc } from "./lib/proc.js";

const DELTAS = Number(process.env.SUB_DELTAS ?? 5000);
const REPS = Number(process.env.SUB_REPS ?? 3);
const LEVELS = ["off", "progress", "events"] as const;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function once(level: (typeof LEVELS)[number]): Promise<Record<string, number>> {
  const llm = await startFakeLlmServer();
  const p = new AgentProc(pith.launch({ llmUrl: llm.url, cwd: tempCwd(), model: ["fake-anthropic", "fake-claude"] }));
  try {
    await p.waitFor((f) => f.type === "ready", 20_000);
    await p.request({ type: "set_subagent_subscription", level });
    llm.enqueue(
      { toolCalls: [{ id: "t1", name: "task", arguments: { agent: "explore", tasks: [{ id: "s", description: "stream", assignment: "stream a lot" }] } }] },
      { deltas: DELTAS },
      { text: "ok" },
    );
    const bytes0 = p.stdoutBytes;
    const cpu0 = p.cpuMs();
    const from = p.frames.length;
    const t0 = performance.now();
    await p.promptAndWait("delegate", 120_000);
    const wall = performance.now() - t0;
    const count = (type: string) => p.frames.slice(from).filter((f) => f.type === type).length;
    return {
      wall,
      cpu: p.cpuMs() - cpu0,
      stdoutKiB: (p.stdoutBytes - bytes0) / 1024,
      lifecycle: count("subagent_lifecycle"),
      progress: count("subagent_progress"),
      event: count("subagent_event"),
    };
  } finally {
    await p.close();
    await llm.close();
  }
}

const rows: string[] = [`| level | wall ms | agent CPU ms | stdout KiB | subagent_lifecycle | subagent_progress | subagent_event |`, `|---|---|---|---|---|---|---|`];
for (const level of LEVELS) {
  const runs: Array<Record<string, number>> = [];
  for (let i = 0; i < REPS; i++) runs.push(await once(level));
  const m = (k: string) => median(runs.map((r) => r[k]!));
  rows.push(`| ${level} | ${m("wall").toFixed(0)} | ${m("cpu").toFixed(0)} | ${m("stdoutKiB").toFixed(0)} | ${m("lifecycle")} | ${m("progress")} | ${m("event")} |`);
}
console.log(`subagent streaming ${DELTAS} deltas, median of ${REPS}\n${rows.join("\n")}`);
