// switch_session to sessions of 100 / 1,000 / 2,000 / 10,000 turns, each file in the agent's own
// format. "fresh" is the first switch_session of a new process (to the 2,000-turn file); "warm"
// figures are the median of 3 switches per size after that, each preceded by a switch to a
// 1-turn session so no agent can short-circuit a switch to the file it already has open.
// "get_messages right after that switch" times the first get_messages of the fresh process.
import type { Agent, AgentName } from "./lib/agents.js";
import { writeSession } from "./lib/sessions.js";
import { makeTemp } from "./lib/temp.js";
import type { FigureSpec } from "./lib/table.js";
import { withProc, type Workload } from "./workloads.js";

export const SWITCH_SIZES = [100, 1000, 2000, 10_000];

const generated = new Map<AgentName, { cwd: string; files: Map<number, string> }>();

/** Generates the files (and the cwd they name) once per agent format, outside any timing. */
function sessionFiles(agent: AgentName): { cwd: string; files: Map<number, string> } {
  const done = generated.get(agent);
  if (done) return done;
  const cwd = makeTemp("bench-cwd-");
  const dir = makeTemp(`bench-sessions-${agent}-`);
  const files = new Map<number, string>();
  for (const n of [1, ...SWITCH_SIZES]) files.set(n, writeSession(agent, dir, cwd, n));
  generated.set(agent, { cwd, files });
  return { cwd, files };
}

const specs: FigureSpec[] = [
  { key: "switch:fresh", label: "switch_session 2,000 turns, fresh process", unit: "ms", digits: 1 },
  { key: "switch:messages", label: "get_messages right after that switch", unit: "ms", digits: 1 },
  ...SWITCH_SIZES.map((n) => ({ key: `switch:${n}`, label: `switch_session ${n.toLocaleString("en-US")} turns, warm`, unit: "ms", digits: 1 })),
];

async function timedSwitch(p: import("./lib/proc.js").AgentProc, file: string): Promise<number> {
  const t0 = performance.now();
  const res = await p.request({ type: "switch_session", sessionPath: file }, 60_000);
  const ms = performance.now() - t0;
  if (!res.success || res.data?.cancelled) throw new Error(`switch_session failed: ${String(res.error ?? "cancelled")}`);
  return ms;
}

export const switchSession: Workload = {
  name: "switch_session",
  specs,
  run: (agent: Agent) => {
    const { cwd, files: f } = sessionFiles(agent.name);
    return withProc(
      agent,
      [],
      async (p) => {
        await p.request({ type: "get_state" }, 20_000);
        const values: Record<string, number> = { "switch:fresh": await timedSwitch(p, f.get(2000)!) };
        const t0 = performance.now();
        const messages = await p.request({ type: "get_messages" }, 60_000);
        values["switch:messages"] = performance.now() - t0;
        const count = (messages.data as { messages?: unknown[] } | undefined)?.messages?.length ?? 0;
        if (!messages.success || count < 2000) throw new Error(`get_messages after the switch gave ${count} messages`);
        for (const n of SWITCH_SIZES) {
          const times: number[] = [];
          for (let i = 0; i < 3; i++) {
            await timedSwitch(p, f.get(1)!);
            times.push(await timedSwitch(p, f.get(n)!));
          }
          values[`switch:${n}`] = times.sort((a, b) => a - b)[1];
        }
        return values;
      },
      { sessions: true, cwd },
    );
  },
};
