// Language servers through the CLI: pith with lsp.enabled and the real typescript-language-server
// (node_modules/.bin) in a small TypeScript project, against the fake SSE server. Per process:
// the first `write` of a .ts file (with a type error) — its time includes starting the server
// and its first check — then 6 more writes, alternately fixed and broken (the server warm).
// A write's time is tool_execution_start → tool_execution_end as the host sees them. Then
// pith's RSS with the server running, against a pith with lsp.enabled off that did the same
// writes (the server's own processes are shown apart). Medians over 3 processes each.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeLlmServer, type FakeReply } from "../test/support/fake-llm-server.js";
import { median, type Figure } from "./checkpoints-bench.js";
import { ROOT, pith, tempCwd } from "./lib/agents.js";
import { AgentProc } from "./lib/proc.js";

const REPS = Number(process.env.LSP_REPS ?? 3);
const LATER_WRITES = 6;
const BIN = path.join(ROOT, "node_modules", ".bin");

const TSCONFIG = JSON.stringify({ compilerOptions: { strict: true, target: "es2022", lib: ["es2022"], module: "nodenext", types: [] } });
const broken = (n: number) => `export function f${n}(x: number): number {\n  return x * ${n};\n}\nexport const bad: number = "${n}";\n`;
const fixed = (n: number) => `export function f${n}(x: number): number {\n  return x * ${n};\n}\nexport const bad: number = ${n};\n`;

interface Samples {
  first: number[];
  later: number[];
  writeOff: number[];
  rssOn: number[];
  rssOff: number[];
  serverRss: number[];
}

/** Each write's start → end time, in the order the writes ran. */
function writeTimes(p: AgentProc, from: number): number[] {
  const starts = new Map<string, number>();
  const out: number[] = [];
  for (let i = from; i < p.frames.length; i++) {
    const f = p.frames[i];
    if (f.type === "tool_execution_start" && f.toolName === "write") starts.set(f.toolCallId, p.times[i]);
    if (f.type === "tool_execution_end" && f.toolName === "write") out.push(p.times[i] - starts.get(f.toolCallId)!);
  }
  return out;
}

/** RSS (MiB) of every process below `pid` (the language server, its tsserver, …). */
function treeRssMiB(pid: number): number {
  const table = execFileSync("ps", ["-eo", "pid=,ppid=,rss="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((l) => l.trim().split(/\s+/).map(Number));
  const below = new Set<number>([pid]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [p, pp] of table) {
      if (below.has(pp) && !below.has(p)) {
        below.add(p);
        grew = true;
      }
    }
  }
  below.delete(pid);
  return table.filter(([p]) => below.has(p)).reduce((sum, [, , rss]) => sum + rss, 0) / 1024;
}

async function oneProcess(lsp: boolean, s: Samples): Promise<void> {
  const llm = await startFakeLlmServer();
  const cwd = tempCwd();
  writeFileSync(path.join(cwd, "tsconfig.json"), TSCONFIG);
  const launch = pith.launch({ llmUrl: llm.url, cwd });
  launch.env.PATH = `${BIN}${path.delimiter}${launch.env.PATH}`;
  writeFileSync(path.join(launch.env.PITH_HOME, "settings.json"), JSON.stringify({ lsp: { enabled: lsp, diagnosticsTimeoutMs: 120_000 } }));
  const p = new AgentProc(launch);
  try {
    await p.waitFor((f) => f.type === "ready", 20_000);
    const write = (n: number, text: string): FakeReply => ({ toolCalls: [{ id: `w${n}`, name: "write", arguments: { path: "mod.ts", content: text } }] });
    llm.enqueue(write(0, broken(0)), { text: "ok" });
    let from = p.frames.length;
    await p.promptAndWait("first write", 180_000);
    const [first] = writeTimes(p, from);
    llm.enqueue(...Array.from({ length: LATER_WRITES }, (_, i) => write(i + 1, i % 2 === 0 ? fixed(i + 1) : broken(i + 1))), { text: "ok" });
    from = p.frames.length;
    await p.promptAndWait("later writes", 180_000);
    const later = writeTimes(p, from);
    const rss = p.memMiB().rss;
    if (lsp) {
      s.first.push(first);
      s.later.push(median(later));
      s.rssOn.push(rss);
      s.serverRss.push(treeRssMiB(p.pid));
    } else {
      s.writeOff.push(median([first, ...later]));
      s.rssOff.push(rss);
    }
  } finally {
    await p.close();
    await llm.close();
  }
}

export async function benchLsp(log: (s: string) => void): Promise<Figure[]> {
  const s: Samples = { first: [], later: [], writeOff: [], rssOn: [], rssOff: [], serverRss: [] };
  for (let rep = 0; rep < REPS; rep++) {
    for (const on of rep % 2 === 0 ? [true, false] : [false, true]) {
      await oneProcess(on, s);
      log(`lsp #${rep + 1} ${on ? "on" : "off"} done`);
    }
  }
  const r = (v: number) => Math.round(v * 10) / 10;
  return [
    { figure: "lsp: first write → diagnostics (typescript-language-server start included)", value: r(median(s.first)), unit: "ms" },
    { figure: "lsp: a later write → diagnostics (server warm)", value: r(median(s.later)), unit: "ms" },
    { figure: "lsp: a write with lsp.enabled off", value: r(median(s.writeOff)), unit: "ms" },
    { figure: "lsp: pith RSS, server running", value: r(median(s.rssOn)), unit: "MiB" },
    { figure: "lsp: pith RSS, lsp.enabled off (same writes)", value: r(median(s.rssOff)), unit: "MiB" },
    { figure: "lsp: the server's processes (typescript-language-server + tsserver)", value: r(median(s.serverRss)), unit: "MiB" },
  ];
}

// `node --import tsx bench/lsp-bench.ts`: these rows alone.
if (process.argv[1]?.endsWith("lsp-bench.ts")) {
  benchLsp((m) => process.stderr.write(`[bench] ${m}\n`)).then((figures) => {
    for (const f of figures) process.stdout.write(`${f.figure}: ${f.value} ${f.unit}\n`);
  });
}
