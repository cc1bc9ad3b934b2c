// `npm run bench`: pith (dist/cli.js) side by side with pi 0.73.1 on the same fake SSE server.
// Each workload runs several times, alternating which agent goes first; progress goes to
// stderr, the final table (medians) to stdout. A crashed or timed-out run is reported as such.
// Options: --quick (1 rep each, skips the 2,000-turn and grep/find sections), --only=<name
// substring>, --no-pi, --no-omp (oh-my-pi runs only the large-session rows).
import { execFileSync } from "node:child_process";
import { cpus, loadavg } from "node:os";
import { benchAcpStartup } from "./acp-startup.js";
import { benchCheckpoints } from "./checkpoints-bench.js";
import { benchCheckpointPrompts } from "./checkpoints-prompt.js";
import { costSession, costSessionFourTools, costSessionWide } from "./cost-workload.js";
import { benchGrepFind } from "./tools-bench.js";
import { benchLsp } from "./lsp-bench.js";
import { benchSessionStores } from "./session-store-bench.js";
import { largeSessionCompacted, largeSessionFull } from "./large-session-bench.js";
import { ensurePi, pi, pith, type Agent } from "./lib/agents.js";
import { ensureOmp, omp, ompDescription, ompUnavailable } from "./lib/omp.js";
import { Results } from "./lib/table.js";
import { removeTemps } from "./lib/temp.js";
import { switchSession } from "./switch-workload.js";
import { bigResult, bigResultV2, startup, streamDefault, streamDeltaOnly, toolTurns200, toolTurns2000, type Workload } from "./workloads.js";
import { idleSessionsBench, listSessionsBench, twoStreamsBench } from "./multi-session-bench.js";
import { bashOutput50, hostResult50, v2Result1k, v2Result6 } from "./memory-bench.js";
import { serveBench } from "./serve-bench.js";

const argv = process.argv.slice(2);
const quick = argv.includes("--quick");
const only = argv.find((a) => a.startsWith("--only="))?.slice("--only=".length);
const log = (s: string) => process.stderr.write(`[bench] ${s}\n`);

const plan: Array<[Workload, number]> = [
  [startup, 5],
  [streamDefault, 3],
  [streamDeltaOnly, 3],
  [toolTurns200, 3],
  [switchSession, 3],
  [bigResult, 3],
  [bigResultV2, 3],
  [hostResult50, 3],
  [bashOutput50, 3],
  [v2Result6, 3],
  [v2Result1k, 3],
  [toolTurns2000, 1],
  // deterministic: the same script gives the same bill every time
  [costSession, 1],
  [costSessionFourTools, 1],
  [costSessionWide, 1],
  [listSessionsBench, 1],
  [idleSessionsBench, 1],
  [twoStreamsBench, 1],
  [serveBench, 1],
  [largeSessionCompacted, 3],
  [largeSessionFull, 3],
];

let ompReady: boolean | undefined;

/** oh-my-pi, installed on first need; undefined (with a reason in the table) when it cannot run. */
function ompFor(results: Results, w: Workload): Agent | undefined {
  if (argv.includes("--no-omp")) return undefined;
  if (ompReady === undefined) {
    ompReady = ensureOmp(log);
    log(ompReady ? `third agent: ${ompDescription()}` : `oh-my-pi unavailable: ${ompUnavailable}`);
  }
  if (!ompReady) results.add("omp", w.specs, { values: {}, failure: `n/a: ${ompUnavailable}` });
  return ompReady ? omp : undefined;
}

async function runWorkload(results: Results, w: Workload, reps: number, agents: Agent[]): Promise<void> {
  results.declare(w.specs);
  const third = w.withOmp ? ompFor(results, w) : undefined;
  const eligible = [...agents, ...(third ? [third] : [])].filter((a) => !w.only || a.name === w.only);
  const failed = new Set<string>();
  for (let rep = 0; rep < reps; rep++) {
    const order = rep % 2 === 0 ? eligible : [...eligible].reverse();
    for (const agent of order) {
      // A crash or timeout repeats: one is enough to report, and it keeps the bench short.
      if (failed.has(agent.name)) continue;
      const t0 = performance.now();
      const run = await w.run(agent);
      results.add(agent.name, w.specs, run);
      if (run.failure) failed.add(agent.name);
      const summary = run.failure ?? Object.entries(run.values).map(([k, v]) => `${k}=${v.toFixed(1)}`).join(" ");
      log(`${w.name} #${rep + 1} ${agent.name} (${Math.round(performance.now() - t0)} ms): ${summary}`);
    }
  }
}

/** Median wall time of `node -e 0`: the floor under every spawn figure on this machine, now. */
function nodeBaselineMs(): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    execFileSync(process.execPath, ["-e", "0"]);
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[2];
}

async function main(): Promise<void> {
  const started = performance.now();
  const agents: Agent[] = [pith];
  if (!argv.includes("--no-pi")) {
    if (ensurePi(log)) agents.push(pi);
    else log("pi unavailable: its column will read n/a");
  }
  const baseline = nodeBaselineMs();
  const load = loadavg()[0].toFixed(1);
  const results = new Results();
  for (const [w, reps] of plan) {
    if (only && !w.name.includes(only)) continue;
    if (quick && w === toolTurns2000) continue;
    await runWorkload(results, w, quick ? 1 : reps, agents);
  }
  if (!only || "startup acp".includes(only)) {
    log("ACP mode startup (pith only: pi has no ACP mode)...");
    for (const f of await benchAcpStartup(quick ? 1 : 5)) results.add("pith", [{ key: f.figure, label: f.figure, unit: f.unit }], { values: { [f.figure]: f.value } });
  }
  if (!quick && (!only || "grep find".includes(only))) {
    log("grep/find over 50,000 files (pith tools, in-process)...");
    const figures = await benchGrepFind();
    for (const f of figures) results.add("pith", [{ key: f.figure, label: f.figure, unit: f.unit }], { values: { [f.figure]: f.value } });
  }
  if (!only || "checkpoint 5,000 files".includes(only)) {
    log("file checkpoints of 5,000 files (pith's engine, in-process, real git)...");
    for (const f of await benchCheckpoints(process.env.PATH)) results.add("pith", [{ key: f.figure, label: f.figure, unit: f.unit, digits: 1 }], { values: { [f.figure]: f.value } });
    log("file checkpoints through the CLI: time added to the first token (5,000 files)...");
    for (const f of await benchCheckpointPrompts(log)) results.add("pith", [{ key: f.figure, label: f.figure, unit: f.unit, digits: 1 }], { values: { [f.figure]: f.value } });
  }
  if (!only || "lsp language servers".includes(only)) {
    log("language servers: write → diagnostics with typescript-language-server, pith RSS with and without...");
    for (const f of await benchLsp(log)) results.add("pith", [{ key: f.figure, label: f.figure, unit: f.unit, digits: 1 }], { values: { [f.figure]: f.value } });
  }
  if (!quick && (!only || "session stores postgresql".includes(only))) {
    log("session stores: JSONL vs PostgreSQL (pith's storage layer, in-process, a local cluster)...");
    for (const f of await benchSessionStores(log)) results.add("pith", [{ key: f.figure, label: f.figure, unit: f.unit, digits: 2 }], { values: { [f.figure]: f.value } });
  }
  const took = Math.round((performance.now() - started) / 1000);
  const peers = ompReady ? ` (and ${ompDescription()} on the large-session rows)` : "";
  process.stdout.write(`\npith vs pi 0.73.1${peers} · ${cpus().length} cores · node ${process.version} · load avg ${load} at start · \`node -e 0\` ${Math.round(baseline)} ms · medians · took ${took} s\n\n`);
  process.stdout.write(results.render() + "\n");
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(removeTemps);
