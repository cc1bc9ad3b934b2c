// Memory bounded by the work: big payloads through one run, measured as the agent's peak RSS
// above its idle RSS (VmHWM reset to VmRSS through /proc/<pid>/clear_refs right before the
// prompt), next to the payload size. Rows:
// - a 50 MiB host tool result (pith only: pi has no host tools): the host answers the
//   `host_tool_call` with 50 MiB of text on one stdin line;
// - a 50 MiB bash output (pith and pi): the model's `bash` call prints 50 MiB in 64-byte lines;
// - a 6 MiB tool result under protocol v2 (pith only; and the same with 1 KiB, the fixed cost of a
//   first prompt whatever the payload): an extension tool returns 6 MiB after
//   `negotiate_protocol 2` (every line ≤ 1 MiB: rpc_chunk, agent_end by reference).
// Each run checks that the payload (or the agent's truncated view of it) reached the model.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { tempCwd, type Agent } from "./lib/agents.js";
import type { AgentProc } from "./lib/proc.js";
import type { FigureSpec } from "./lib/table.js";
import { bigToolExtension, withProc, type Workload } from "./workloads.js";

const MiB = 1024 * 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const LINE = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcde\n"; // 64 bytes

function specs(tag: string, title: string): FigureSpec[] {
  return [
    { key: `${tag}:idle`, label: `${title}: idle RSS before`, unit: "MiB", digits: 1 },
    { key: `${tag}:above`, label: `${title}: peak RSS above idle`, unit: "MiB", digits: 1 },
    { key: `${tag}:ratio`, label: `${title}: peak above idle / payload`, unit: "×", digits: 2 },
    { key: `${tag}:wall`, label: `${title}: prompt → agent_end`, unit: "ms" },
  ];
}

/** Settles, resets the peak, runs `go`, and reports the peak above the idle RSS. */
async function measure(p: AgentProc, tag: string, payloadMiB: number, go: () => Promise<void>): Promise<Record<string, number>> {
  await sleep(500);
  const idle = p.memMiB().rss;
  if (!p.resetPeak()) throw new Error("cannot reset VmHWM (/proc/<pid>/clear_refs)");
  const t0 = performance.now();
  await go();
  const wall = performance.now() - t0;
  const above = p.memMiB().peak - idle;
  return { [`${tag}:idle`]: idle, [`${tag}:above`]: above, [`${tag}:ratio`]: above / payloadMiB, [`${tag}:wall`]: wall };
}

export const hostResult50: Workload = {
  name: "50 MiB host tool result",
  only: "pith",
  specs: specs("host50", "50 MiB host tool result"),
  run: (agent: Agent) =>
    withProc(agent, [], async (p, llm) => {
      await p.request({ type: "get_state" }, 20_000);
      const tool = { name: "big_host", description: "Returns a lot of text", parameters: { type: "object", properties: {} } };
      await p.request({ type: "set_host_tools", tools: [tool] }, 20_000);
      llm.enqueue({ toolCalls: [{ id: "call_big", name: "big_host", arguments: {} }] }, { text: "ok" });
      return measure(p, "host50", 50, async () => {
        const from = p.frames.length;
        const done = p.promptAndWait("big", 120_000);
        const call = await p.waitFor((f) => f.type === "host_tool_call", 60_000, from);
        const text = LINE.repeat((50 * MiB) / LINE.length);
        p.send({ type: "host_tool_result", id: call.id, result: { content: [{ type: "text", text }] } });
        await done;
        const body = llm.requests.at(-1)?.bytes ?? 0;
        if (body < 50 * MiB) throw new Error(`the 50 MiB result did not reach the model (last request ${body} bytes)`);
      });
    }),
};

export const bashOutput50: Workload = {
  name: "50 MiB bash output",
  specs: specs("bash50", "50 MiB bash output"),
  run: (agent: Agent) =>
    withProc(agent, [], async (p, llm) => {
      await p.request({ type: "get_state" }, 20_000);
      const command = `yes ${LINE.trim()} | head -c ${50 * MiB}`;
      llm.enqueue({ toolCalls: [{ id: "call_bash", name: "bash", arguments: { command } }] }, { text: "ok" });
      return measure(p, "bash50", 50, async () => {
        await p.promptAndWait("run it", 120_000);
        if (!JSON.stringify(llm.requests.at(-1)?.body ?? "").includes(LINE.slice(0, 40))) throw new Error("the bash output did not reach the model");
      });
    }),
};

/** An extension tool's result of `bytes` after `negotiate_protocol 2`; `payloadMiB` is what the ratio divides by. */
function v2Result(name: string, tag: string, bytes: number): Workload {
  const payloadMiB = bytes / MiB;
  return {
    name,
    only: "pith",
    specs: specs(tag, name),
    run: (agent: Agent) => {
      const cwd = tempCwd();
      const ext = path.join(cwd, "big-tool.mjs");
      writeFileSync(ext, bigToolExtension(`${JSON.stringify(LINE)}.repeat(${Math.max(1, Math.round(bytes / LINE.length))})`, "Returns a lot of text"));
      return withProc(
        agent,
        ["-e", ext],
        async (p, llm) => {
          await p.request({ type: "get_state" }, 20_000);
          await p.request({ type: "negotiate_protocol", protocolVersion: 2 }, 20_000);
          llm.enqueue({ toolCalls: [{ id: "call_big", name: "big", arguments: {} }] }, { text: "ok" });
          return measure(p, tag, payloadMiB, async () => {
            await p.promptAndWait("big", 60_000);
            const body = llm.requests.at(-1)?.bytes ?? 0;
            if (body < bytes) throw new Error(`the tool result did not reach the model (last request ${body} bytes)`);
          });
        },
        { cwd },
      );
    },
  };
}

export const v2Result6 = v2Result("6 MiB tool result, protocol v2", "v2r6", 6 * MiB);
/** The same run with a 1 KiB result: what a first prompt costs whatever the payload (code loaded on first use, heap growth). */
export const v2Result1k = v2Result("1 KiB tool result, protocol v2", "v2r1k", 1024);
