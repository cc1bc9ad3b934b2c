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
const REQUESTS = PROMPTS * 4;

function fileText(n: number): string {
  return Array.from({ length: 100 }, (_, i) => `export const item${n}_${i} = compute(${i}, "value-${n}-${i}");`).join("\n") + "\n";
}

function script(): FakeReply[] {
  const replies: FakeReply[] = [];
  for (let i = 0; i < PROMPTS; i++) {
    const a = `src/mod${i}.ts`;
    const b = `src/mod${(i + 1) % FILES}.ts`;
    replies.push(
      { text: `I'll look at ${a} first.`, toolCalls: [{ name: "read", arguments: { path: a } }] },
      { toolCalls: [{ name: "bash", arguments: { command: `grep -n "compute" ${a} | head -60` } }] },
      { text: `Now ${b} for comparison.`, toolCalls: [{ name: "read", arguments: { path: b } }] },
      { text: `Both modules build their items with compute(); ${a} and ${b} differ only in the value prefix. ${"Details follow. ".repeat(12)}` },
    );
  }
  return replies;
}

const k = (s: string) => `cost:${s}`;

export const costSession: Workload = {
  name: "cost 10-prompt session",
  specs: [
    { key: k("usd"), label: "10-prompt session (40 requests), simulated Anthropic bill", unit: "$", digits: 4 },
    { key: k("usdOff"), label: "same requests with caching off", unit: "$", digits: 4 },
    { key: k("share"), label: "bill ÷ bill with caching off", unit: "%", digits: 1 },
    { key: k("input"), label: "input tokens, all kinds (session total)", unit: "tok" },
    { key: k("firstBytes"), label: "input bytes, first request (tools + system + prompt)", unit: "B" },
    { key: k("meanBytes"), label: "input bytes per request, mean", unit: "B" },
    { key: k("breakpoints"), label: "cache breakpoints per request, mean", unit: "n", digits: 1 },
  ],
  run: (agent) => runCostSession(agent),
};

async function runCostSession(agent: Agent): Promise<RunResult> {
  const llm = await startFakeLlmServer({ promptCache: true });
  const cwd = tempCwd();
  const src = path.join(cwd, "src");
  mkdirSync(src);
  for (let i = 0; i < FILES; i++) writeFileSync(path.join(src, `mod${i}.ts`), fileText(i));
  const p = new AgentProc(agent.launch({ llmUrl: llm.url, cwd, model: ["fake-anthropic", "fake-claude"] }));
  try {
    await p.request({ type: "get_state" }, 20_000);
    llm.enqueue(...script());
    for (let i = 0; i < PROMPTS; i++) await p.promptAndWait(`Task ${i + 1}: compare src/mod${i}.ts with the next module and explain the difference.`, 60_000);
    const bills = llm.bills;
    if (bills.length !== REQUESTS) throw new Error(`expected ${REQUESTS} requests, the fake billed ${bills.length}`);
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
