// The workloads. Each one spawns a fresh agent process, measures one run and returns its
// figures; a crash or timeout becomes the run's `failure` instead of an exception.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeLlmServer, type FakeLlm } from "../test/support/fake-llm-server.js";
import { tempCwd, type Agent } from "./lib/agents.js";
import { AgentProc, ExitedError } from "./lib/proc.js";
import type { FigureSpec, RunResult } from "./lib/table.js";

export interface Workload {
  name: string;
  specs: FigureSpec[];
  /** Agents this workload runs on (default both). */
  only?: Agent["name"];
  /** Also run oh-my-pi (lib/omp.ts) as a third agent. */
  withOmp?: boolean;
  run(agent: Agent): Promise<RunResult>;
}

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Body = (p: AgentProc, llm: FakeLlm) => Promise<Record<string, number>>;

/**
 * Runs `body` against a fresh process and a fresh fake LLM server (so a crashed run cannot leave
 * replies queued for the next one); always closes both; maps exits and timeouts to failures.
 */
export async function withProc(agent: Agent, extraArgs: string[], body: Body, opts: { sessions?: boolean; cwd?: string } = {}): Promise<RunResult> {
  const llm = await startFakeLlmServer();
  const p = new AgentProc(agent.launch({ llmUrl: llm.url, cwd: opts.cwd ?? tempCwd(), extraArgs, sessions: opts.sessions }));
  try {
    return { values: await body(p, llm) };
  } catch (err) {
    const out = `${(p.stdoutBytes / MiB).toFixed(1)} MiB out`;
    if (err instanceof ExitedError) return { values: {}, failure: `crash after ${out}: ${err.message}`.slice(0, 110) };
    const msg = (err as Error).message;
    return { values: {}, failure: msg.startsWith("timeout") ? `${msg}, ${out}` : `error: ${msg}`.slice(0, 110) };
  } finally {
    await p.close();
    await llm.close();
  }
}

export const startup: Workload = {
  name: "startup",
  specs: [
    { key: "ready", label: "spawn → ready frame", unit: "ms" },
    { key: "getState", label: "spawn → first get_state response", unit: "ms" },
    { key: "startCpu", label: "agent CPU until first get_state response", unit: "ms" },
    { key: "idleRss", label: "idle RSS (1 s after first get_state)", unit: "MiB", digits: 1 },
    { key: "vsNode", label: "spawn → first get_state / `node -e 0` (timed right before)", unit: "×", digits: 2 },
    { key: "nodeRss", label: "Node's own idle RSS (an empty `node` process, 1 s after spawn)", unit: "MiB", digits: 1 },
  ],
  run: async (agent) => {
    // Node's floor on this machine, now: the wall time of `node -e 0` and the RSS of an idle node
    const t0 = performance.now();
    execFileSync(process.execPath, ["-e", "0"]);
    const nodeMs = performance.now() - t0;
    const nodeRss = await idleNodeRss();
    return withProc(agent, [], async (p) => {
      p.send({ type: "get_state", id: "first" });
      const res = await p.waitFor((f) => f.type === "response" && f.id === "first", 20_000);
      const startCpu = p.cpuMs();
      const getState = p.times[p.frames.indexOf(res)] - p.spawnedAt;
      const readyAt = p.frames.findIndex((f) => f.type === "ready");
      await sleep(1000);
      const values: Record<string, number> = { getState, startCpu, idleRss: p.memMiB().rss, vsNode: getState / nodeMs, nodeRss };
      if (readyAt !== -1) values.ready = p.times[readyAt] - p.spawnedAt;
      return values;
    });
  },
};

/** VmRSS of a node process that does nothing, 1 s after its spawn. */
async function idleNodeRss(): Promise<number> {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 5000)"], { stdio: "ignore" });
  try {
    await sleep(1000);
    const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
    return Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? NaN) / 1024;
  } finally {
    child.kill();
  }
}

function streamWorkload(label: string, extraArgs: string[], only?: Agent["name"]): Workload {
  const k = (s: string) => `${label}:${s}`;
  return {
    name: `stream ${label}`,
    only,
    specs: [
      { key: k("wall"), label: `20k deltas ${label}: wall`, unit: "ms" },
      { key: k("cpu"), label: `20k deltas ${label}: agent CPU`, unit: "ms" },
      { key: k("stdout"), label: `20k deltas ${label}: stdout`, unit: "MiB", digits: 2 },
      { key: k("frames"), label: `20k deltas ${label}: message_update frames`, unit: "n" },
      { key: k("peak"), label: `20k deltas ${label}: peak RSS`, unit: "MiB", digits: 1 },
    ],
    run: (agent) =>
      withProc(agent, extraArgs, async (p, llm) => {
        await p.request({ type: "get_state" }, 20_000);
        llm.enqueue({ deltas: 20_000 });
        const bytes0 = p.stdoutBytes;
        const frames0 = p.updateFrames;
        const cpu0 = p.cpuMs();
        const t0 = performance.now();
        await p.promptAndWait("stream", 60_000);
        const wall = performance.now() - t0;
        const cpu = p.cpuMs() - cpu0;
        const peak = p.memMiB().peak;
        const end = p.frames.findLast((f) => f.type === "message_end" && f.message?.role === "assistant");
        const text = end?.message?.content?.find((c: { type: string }) => c.type === "text")?.text as string | undefined;
        if (!text?.startsWith("d0 d1 ") || !text.endsWith("d19999 ")) throw new Error("the streamed text arrived incomplete");
        return { [k("wall")]: wall, [k("cpu")]: cpu, [k("stdout")]: (p.stdoutBytes - bytes0) / MiB, [k("frames")]: p.updateFrames - frames0, [k("peak")]: peak };
      }),
  };
}

export const streamDefault = streamWorkload("default", []);
export const streamDeltaOnly = streamWorkload("delta-only", ["--delta-streaming"], "pith");

export function toolTurnsWorkload(turns: number, sessions: boolean): Workload {
  const k = (s: string) => `turns${turns}:${s}`;
  const tag = `${turns} read-tool turns${sessions ? " (session on)" : ""}`;
  return {
    name: tag,
    specs: [
      { key: k("perTurn"), label: `${tag}: per turn`, unit: "ms", digits: 2 },
      { key: k("cpu"), label: `${tag}: agent CPU per turn`, unit: "ms", digits: 2 },
      { key: k("first"), label: `${tag}: per turn, first 10%`, unit: "ms", digits: 2 },
      { key: k("last"), label: `${tag}: per turn, last 10%`, unit: "ms", digits: 2 },
    ],
    run: (agent) => {
      const cwd = tempCwd();
      writeFileSync(path.join(cwd, "a.txt"), "hello\n");
      return withProc(
        agent,
        [],
        async (p, llm) => {
          await p.request({ type: "get_state" }, 20_000);
          for (let i = 0; i < turns; i++) llm.enqueue({ toolCalls: [{ id: `call_${i}`, name: "read", arguments: { path: "a.txt" } }] });
          llm.enqueue({ text: "done" });
          const from = p.frames.length;
          const cpu0 = p.cpuMs();
          const t0 = performance.now();
          await p.promptAndWait("go", 180_000);
          const cpu = p.cpuMs() - cpu0;
          const ends: number[] = [];
          for (let i = from; i < p.frames.length; i++) if (p.frames[i].type === "turn_end") ends.push(p.times[i]);
          const tenth = Math.max(1, Math.floor(turns / 10));
          const endAt = p.times[p.frames.findIndex((f, i) => i >= from && f.type === "agent_end")];
          return {
            [k("perTurn")]: (endAt - t0) / (turns + 1),
            [k("cpu")]: cpu / (turns + 1),
            [k("first")]: (ends[tenth] - ends[0]) / tenth,
            [k("last")]: (ends[ends.length - 1] - ends[ends.length - 1 - tenth]) / tenth,
          };
        },
        { sessions, cwd },
      );
    },
  };
}

export const toolTurns200 = toolTurnsWorkload(200, false);
export const toolTurns2000 = toolTurnsWorkload(2000, true);

/** An extension (same file for every agent) whose tool `big` returns the text `textExpr` evaluates to. */
export function bigToolExtension(textExpr: string, description: string): string {
  return `
const text = ${textExpr};
export default function (pi) {
  pi.registerTool({
    name: "big",
    label: "big",
    description: ${JSON.stringify(description)},
    parameters: { type: "object", properties: {} },
    async execute() { return { content: [{ type: "text", text }], details: {} }; },
  });
}
`;
}

const BIG_EXTENSION = bigToolExtension(`"0123456789abcdef".repeat(131072)`, "Returns 2 MiB of text");

function bigResultWorkload(label: string, protocolVersion: 1 | 2, only?: Agent["name"]): Workload {
  const k = (s: string) => `${label}:${s}`;
  const title = protocolVersion === 2 ? "2 MiB tool result, protocol v2" : "2 MiB tool result";
  return {
    name: title,
    only,
    specs: [
      { key: k("wall"), label: `${title}: prompt → agent_end`, unit: "ms" },
      { key: k("stdout"), label: `${title}: stdout`, unit: "MiB", digits: 2 },
      { key: k("peak"), label: `${title}: peak RSS`, unit: "MiB", digits: 1 },
    ],
    run: (agent) => {
      const cwd = tempCwd();
      const ext = path.join(cwd, "big-tool.mjs");
      writeFileSync(ext, BIG_EXTENSION);
      return withProc(
        agent,
        ["-e", ext],
        async (p, llm) => {
          await p.request({ type: "get_state" }, 20_000);
          if (protocolVersion === 2) await p.request({ type: "negotiate_protocol", protocolVersion: 2 }, 20_000);
          llm.enqueue({ toolCalls: [{ id: "call_big", name: "big", arguments: {} }] }, { text: "ok" });
          const bytes0 = p.stdoutBytes;
          const t0 = performance.now();
          await p.promptAndWait("big", 60_000);
          const wall = performance.now() - t0;
          const last = llm.requests.at(-1);
          if (!JSON.stringify(last?.body ?? "").includes("0123456789abcdef0123")) throw new Error("the 2 MiB result did not reach the model");
          return { [k("wall")]: wall, [k("stdout")]: (p.stdoutBytes - bytes0) / MiB, [k("peak")]: p.memMiB().peak };
        },
        { cwd },
      );
    },
  };
}

export const bigResult = bigResultWorkload("big", 1);
/** The same run after negotiate_protocol 2 (pith only): lines ≤ 1 MiB, agent_end by reference. */
export const bigResultV2 = bigResultWorkload("big-v2", 2, "pith");
