// ACP mode startup: spawn `pith --mode acp` → `initialize` answered → `session/new` answered,
// median of several spawns (the RPC figure is the startup row above it).
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { ROOT } from "./lib/agents.js";
import { makeTemp } from "./lib/temp.js";

export interface AcpStartupFigure {
  figure: string;
  unit: string;
  value: number;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

async function once(): Promise<{ initialize: number; sessionNew: number }> {
  const home = makeTemp("bench-acp-home-");
  const cwd = makeTemp("bench-acp-cwd-");
  // No provider is contacted: a models.json provider pointing nowhere is enough to start.
  writeFileSync(
    path.join(home, "models.json"),
    JSON.stringify({ providers: { bench: { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "x", models: [{ id: "m", name: "m", contextWindow: 100000, maxTokens: 1000 }] } } }),
  );
  const cli = process.env.PITH_BENCH_CLI ?? path.join(ROOT, "dist", "cli.js");
  const t0 = performance.now();
  const child = spawn(process.execPath, [cli, "--mode", "acp", "--no-extensions", "--provider", "bench", "--model", "m"], {
    cwd,
    env: { PATH: process.env.PATH ?? "", HOME: home, PITH_HOME: home },
    stdio: ["pipe", "pipe", "ignore"],
  });
  const answered = new Map<number, number>();
  let buf = "";
  const waiters = new Map<number, () => void>();
  child.stdout.on("data", (c: Buffer) => {
    buf += c.toString("utf8");
    let nl;
    while ((nl = buf.indexOf("\n")) !== -1) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      const msg = JSON.parse(line) as { id?: number; result?: unknown };
      if (typeof msg.id === "number" && msg.result !== undefined) {
        answered.set(msg.id, performance.now() - t0);
        waiters.get(msg.id)?.();
      }
    }
  });
  const call = (id: number, method: string, params: unknown) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method} not answered in 20 s`)), 20_000);
      waiters.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });
  try {
    await call(1, "initialize", { protocolVersion: 1, clientCapabilities: {} });
    await call(2, "session/new", { cwd, mcpServers: [] });
    return { initialize: answered.get(1)!, sessionNew: answered.get(2)! };
  } finally {
    child.kill();
  }
}

export async function benchAcpStartup(reps = 5): Promise<AcpStartupFigure[]> {
  const runs = [];
  for (let i = 0; i < reps; i++) runs.push(await once());
  return [
    { figure: "ACP: spawn → initialize answered", unit: "ms", value: median(runs.map((r) => r.initialize)) },
    { figure: "ACP: spawn → session/new answered", unit: "ms", value: median(runs.map((r) => r.sessionNew)) },
  ];
}
