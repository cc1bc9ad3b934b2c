// The cost row (issue 17): a scripted 10-prompt coding session (40 model requests: per prompt a
// `read`, a `bash`, another `read` of 4 KB files, then an answer) against the fake Anthropic
// endpoint with Anthropic's prompt-cache billing simulated (test/support/prompt-cache-sim.ts:
// $3 / $3.75 / $0.30 / $15 per million input / cache write / cache read / output, tokens ≈
// bytes / 4). Both agents get the same replies; the bill is the fake's, not what an agent
// reports. "Caching off" prices every input token of the same requests at the input price.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startFakeLlmServer, type FakeReply } from "../test/support/fake-llm-server.js";
import { billUsd } from "../test/support/prompt-cache-sim.js";
import { tempCwd, type Agent } from "./lib/agents.js";
import { AgentProc } from "./lib/proc.js";
import type { RunResult } from "./lib/table.js";
import type { Workload } from "./workloads.js";

const PROMPTS = 10;
const FILES = 10;

function fileText(n: number): string {
  return Array.from({ length: 100 }, (_, i) => `export const item${n}_${i} = compute(${i}, "value-${n}-${i}");`).join("\n") + "\n";
}

/** Per prompt: read, bash, read, answer. With `wide`, prompt 6 first reads all ten modules at once. */
function script(wide: boolean): FakeReply[] {
  const replies: FakeReply[] = [];
  for (let i = 0; i < PROMPTS; i++) {
    const a = `src/mod${i}.ts`;
    const b = `src/mod${(i + 1) % FILES}.ts`;
    if (wide && i === 5) {
      const all = Array.from({ length: FILES }, (_, n) => ({ name: "read", arguments: { path: `src/mod${n}.ts` } }));
      replies.push({ text: "Reading every module at once.", toolCalls: all });
    }
    replies.push(
      { text: `I'll look at ${a} first.`, toolCalls: [{ name: "read", arguments: { path: a } }] },
      { toolCalls: [{ name: "bash", arguments: { command: `grep -n "compute" ${a} | head -60` } }] },
      { text: `Now ${b} for comparison.`, toolCalls: [{ name: "read", arguments: { path: b } }] },
      { text: `Both modules build their items with compute(); ${a} and ${b} differ only in the value prefix. ${"Details follow. ".repeat(12)}` },
    );
  }
  return replies;
}

interface Variant {
  tag: string;
  label: string;
  extraArgs: string[];
  wide: boolean;
  /** Only the bill (the main variant prints every figure). */
  billOnly: boolean;
}

function costWorkload(v: Variant): Workload {
  const k = (s: string) => `cost${v.tag}:${s}`;
  const all = [
    { key: k("usd"), label: `${v.label}: simulated Anthropic bill`, unit: "$", digits: 4 },
    { key: k("usdOff"), label: `${v.label}: same requests with caching off`, unit: "$", digits: 4 },
    { key: k("share"), label: `${v.label}: bill ÷ bill with caching off`, unit: "%", digits: 1 },
    { key: k("input"), label: `${v.label}: input tokens, all kinds`, unit: "tok" },
    { key: k("firstBytes"), label: `${v.label}: input bytes, first request (tools + system + prompt)`, unit: "B" },
    { key: k("meanBytes"), label: `${v.label}: input bytes per request, mean`, unit: "B" },
    { key: k("breakpoints"), label: `${v.label}: cache breakpoints per request, mean`, unit: "n", digits: 1 },
  ];
  return {
    name: `cost ${v.label}`,
    specs: v.billOnly ? all.slice(0, 1) : all,
    run: (agent) => runCostSession(agent, v, k),
  };
}

const SESSION = "10-prompt session, 40 requests";
export const costSession = costWorkload({ tag: "", label: SESSION, extraArgs: [], wide: false, billOnly: false });
/** Apples to apples: pi's default tool set for both agents (pith offers 7 tools and call_tool by default, pi 4). */
export const costSessionFourTools = costWorkload({
  tag: "4",
  label: `${SESSION}, --tools read,bash,edit,write`,
  extraArgs: ["--tools", "read,bash,edit,write"],
  wide: false,
  billOnly: true,
});
/** One more turn reads ten files at once: 21 new blocks, past Anthropic's 20-block lookback from the last breakpoint. */
export const costSessionWide = costWorkload({ tag: "w", label: `${SESSION} + one 10-file parallel read`, extraArgs: [], wide: true, billOnly: true });

async function runCostSession(agent: Agent, v: Variant, k: (s: string) => string): Promise<RunResult> {
  const llm = await startFakeLlmServer({ promptCache: true });
  const cwd = tempCwd();
  const src = path.join(cwd, "src");
  mkdirSync(src);
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(src, `mod${i}.ts`), fileText(i));
  const p = new AgentProc(agent.launch({ llmUrl: llm.url, cwd, model: ["fake-anthropic", "fake-claude"], extraArgs: v.extraArgs }));
  try {
    await p.request({ type: "get_state" }, 20_000);
    const replies = script(v.wide);
    llm.enqueue(...replies);
    for (let i = 0; i < PROMPTS; i++) await p.promptAndWait(`Task ${i + 1}: compare src/mod${i}.ts with the next module and explain the difference.`, 60_000);
    const bills = llm.bills;
    if (bills.length !== replies.length) throw new Error(`expected ${replies.length} requests, the fake billed ${bills.length}`);
    const sum = (f: (b: (typeof bills)[number]) => number) => bills.reduce((a, b) => a + f(b), 0);
    const usd = sum((b) => b.usd);
    const usdOff = sum((b) => billUsd({ input: b.input + b.cacheRead + b.cacheWrite, cacheRead: 0, cacheWrite: 0, cacheWrite1h: 0, output: b.output }));
    return {
      values: {
        [k("usd")]: usd,
        [k("usdOff")]: usdOff,
        [k("share")]: (usd / usdOff) * 100,
        [k("input")]: sum((b) => b.input + b.cacheRead + b.cacheWrite),
        [k("firstBytes")]: bills[0].requestBytes,
        [k("meanBytes")]: sum((b) => b.requestBytes) / bills.length,
        [k("breakpoints")]: sum((b) => b.breakpoints) / bills.length,
      },
    };
  } catch (err) {
    return { values: {}, failure: `error: ${(err as Error).message}`.slice(0, 110) };
  } finally {
    await p.close();
    await llm.close();
  }
}
