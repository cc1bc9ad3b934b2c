// `pith serve` rows (pith only): idle memory per connection with 200 connections open, and 50
// connections each streaming 2,000 deltas at once (wall, pith CPU) against 50 `--mode rpc`
// processes doing the same.
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { WebSocket } from "ws";
import { startFakeLlmServer } from "../test/support/fake-llm-server.js";
import { baseEnv, modelsJson, tempCwd, type Agent } from "./lib/agents.js";
import { AgentProc } from "./lib/proc.js";
import { makeTemp } from "./lib/temp.js";
import type { Workload } from "./workloads.js";

const CLI = path.resolve(import.meta.dirname, "../dist/cli.js");
const CLK_TCK = 100;
const STREAMS = 50;
const DELTAS = 2_000;

function procStat(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const rss = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? NaN);
  return { cpuMs: ((Number(f[11]) + Number(f[12])) * 1000) / CLK_TCK, rssMiB: rss / 1024 };
}

/** `pith serve` on a free port, no auth (loopback), no session files; resolves with its URL. */
async function startServe(llmUrl: string): Promise<{ child: ChildProcess; url: string }> {
  const home = makeTemp("bench-serve-home-");
  writeFileSync(path.join(home, "models.json"), modelsJson(llmUrl));
  const args = [CLI, "serve", "--listen", "ws://127.0.0.1:0", "--insecure-no-auth", "--max-connections", "1000", "--no-session", "--no-extensions", "--provider", "fake-openai", "--model", "fake-gpt"];
  const child = spawn(process.execPath, args, { cwd: tempCwd(), env: { ...baseEnv(home), PITH_HOME: home }, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  for (;;) {
    const [chunk] = (await once(child.stderr!, "data")) as [Buffer];
    err += chunk.toString();
    const m = /listening on (ws:\/\/\S+)/.exec(err);
    if (m) return { child, url: m[1] };
  }
}

/** A connection whose frames are counted; resolves once `ready` arrived. */
async function open(url: string): Promise<{ ws: WebSocket; frames: Array<Record<string, unknown>> }> {
  const ws = new WebSocket(url, { perMessageDeflate: false });
  const frames: Array<Record<string, unknown>> = [];
  const ready = new Promise<void>((resolve) =>
    ws.on("message", (d) => {
      const f = JSON.parse(String(d)) as Record<string, unknown>;
      frames.push(f);
      if (f.type === "ready") resolve();
    }),
  );
  await ready;
  return { ws, frames };
}

function untilFrame(c: { ws: WebSocket; frames: Array<Record<string, unknown>> }, type: string): Promise<void> {
  if (c.frames.some((f) => f.type === type)) return Promise.resolve();
  return new Promise((resolve) => c.ws.on("message", (d) => JSON.parse(String(d)).type === type && resolve()));
}

export const serveBench: Workload = {
  name: "pith serve",
  only: "pith",
  specs: [
    { key: "serve:idle-1", label: "pith serve idle RSS, 1 connection", unit: "MiB", digits: 1 },
    { key: "serve:idle-200", label: "pith serve idle RSS, 200 connections", unit: "MiB", digits: 1 },
    { key: "serve:idle-each", label: "RSS per extra idle connection (1 → 200)", unit: "MiB", digits: 2 },
    { key: "serve:50-wall", label: "50 connections × 2,000 deltas at once, pith serve: wall", unit: "ms" },
    { key: "serve:50-cpu", label: "50 connections × 2,000 deltas at once, pith serve: CPU", unit: "ms" },
    { key: "rpc:50-wall", label: "50 --mode rpc processes × 2,000 deltas at once: wall", unit: "ms" },
    { key: "rpc:50-cpu", label: "50 --mode rpc processes × 2,000 deltas at once: CPU (sum)", unit: "ms" },
  ],
  run: async (agent: Agent) => {
    const llm = await startFakeLlmServer();
    const { child, url } = await startServe(llm.url);
    const values: Record<string, number> = {};
    const conns: Array<Awaited<ReturnType<typeof open>>> = [];
    try {
      conns.push(await open(url));
      await new Promise((r) => setTimeout(r, 1000));
      values["serve:idle-1"] = procStat(child.pid!).rssMiB;
      for (let i = 1; i < 200; i++) conns.push(await open(url));
      await new Promise((r) => setTimeout(r, 1000));
      values["serve:idle-200"] = procStat(child.pid!).rssMiB;
      values["serve:idle-each"] = (values["serve:idle-200"] - values["serve:idle-1"]) / 199;
      const streaming = conns.slice(0, STREAMS);
      for (const c of conns.slice(STREAMS)) c.ws.close();
      llm.enqueue(...streaming.map(() => ({ deltas: DELTAS })));
      const cpu0 = procStat(child.pid!).cpuMs;
      const t0 = performance.now();
      await Promise.all(streaming.map((c, i) => (c.ws.send(JSON.stringify({ id: `p${i}`, type: "prompt", message: "stream" })), untilFrame(c, "agent_end"))));
      values["serve:50-wall"] = performance.now() - t0;
      values["serve:50-cpu"] = procStat(child.pid!).cpuMs - cpu0;
    } finally {
      for (const c of conns) c.ws.terminate();
      child.kill("SIGKILL");
    }
    const procs = Array.from({ length: STREAMS }, () => new AgentProc(agent.launch({ llmUrl: llm.url, cwd: tempCwd(), extraArgs: [], sessions: false })));
    try {
      await Promise.all(procs.map((p) => p.request({ type: "get_state" }, 60_000)));
      llm.enqueue(...procs.map(() => ({ deltas: DELTAS })));
      const cpu0 = procs.map((p) => p.cpuMs());
      const t0 = performance.now();
      await Promise.all(procs.map(async (p) => {
        const from = p.frames.length;
        await p.request({ type: "prompt", message: "stream" }, 60_000);
        await p.waitFor((f) => f.type === "agent_end", 120_000, from);
      }));
      values["rpc:50-wall"] = performance.now() - t0;
      values["rpc:50-cpu"] = procs.reduce((sum, p, i) => sum + p.cpuMs() - cpu0[i], 0);
      return { values };
    } catch (err) {
      return { values, failure: `error: ${(err as Error).message}`.slice(0, 110) };
    } finally {
      for (const p of procs) await p.close();
      await llm.close();
    }
  },
};
