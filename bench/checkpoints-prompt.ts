// File checkpoints through the CLI (issue 25): pith in a generated 5,000-file project, with and
// without --file-checkpoints, against the fake SSE server answering after a 300 ms first-byte
// delay (a fast model). Per process 4 prompts: prompt → first message_update (the first token),
// and with checkpoints prompt → checkpoint_created (the first prompt takes the first checkpoint
// of a fresh shadow repository, the others the next ones, nothing changed). The time a checkpoint
// adds to the first token is the median with checkpoints minus the median without (prompts 2-4;
// the first prompt of a process also loads the provider code, so it is shown apart).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeLlmServer } from "../test/support/fake-llm-server.js";
import { generateProject, median, type Figure } from "./checkpoints-bench.js";
import { pith } from "./lib/agents.js";
import { AgentProc } from "./lib/proc.js";

const PROMPTS = 4;
const REPS = Number(process.env.CP_REPS ?? 3);
const FIRST_BYTE_DELAY_MS = Number(process.env.CP_DELAY ?? 300);

interface Samples {
  ttftOff: number[];
  ttftOffFirst: number[];
  ttftOnFirst: number[];
  ttftOnNext: number[];
  checkpointFirst: number[];
  checkpointNext: number[];
}

async function oneProcess(project: string, checkpoints: boolean, s: Samples): Promise<void> {
  const llm = await startFakeLlmServer();
  const p = new AgentProc(pith.launch({ llmUrl: llm.url, cwd: project, sessions: true, extraArgs: checkpoints ? ["--file-checkpoints"] : [] }));
  try {
    await p.waitFor((f) => f.type === "ready", 20_000);
    const state = await p.request({ type: "get_state" });
    if (checkpoints && !state.data?.fileCheckpoints?.enabled) throw new Error(`checkpoints are off: ${state.data?.fileCheckpoints?.reason}`);
    for (let i = 0; i < PROMPTS; i++) {
      llm.enqueue({ text: "ok", delayMs: FIRST_BYTE_DELAY_MS });
      const from = p.frames.length;
      const created = checkpoints ? p.waitFor((f) => f.type === "checkpoint_created", 120_000, from) : undefined;
      p.firstUpdateAt = undefined;
      const t0 = performance.now();
      await p.promptAndWait(`prompt ${i}`, 120_000);
      if (p.firstUpdateAt === undefined) throw new Error("no message_update");
      const ttft = p.firstUpdateAt - t0;
      if (!checkpoints) {
        (i === 0 ? s.ttftOffFirst : s.ttftOff).push(ttft);
        continue;
      }
      const frame = await created!;
      const cpMs = p.times[p.frames.indexOf(frame)] - t0;
      (i === 0 ? s.ttftOnFirst : s.ttftOnNext).push(ttft);
      (i === 0 ? s.checkpointFirst : s.checkpointNext).push(cpMs);
    }
  } finally {
    await p.close();
    await llm.close();
  }
}

export async function benchCheckpointPrompts(log: (s: string) => void): Promise<Figure[]> {
  const project = mkdtempSync(join(tmpdir(), "pith-bench-cp-prompt-"));
  try {
    await generateProject(project);
    const s: Samples = { ttftOff: [], ttftOffFirst: [], ttftOnFirst: [], ttftOnNext: [], checkpointFirst: [], checkpointNext: [] };
    for (let rep = 0; rep < REPS; rep++) {
      for (const on of rep % 2 === 0 ? [false, true] : [true, false]) {
        await oneProcess(project, on, s);
        log(`checkpoint prompts #${rep + 1} ${on ? "on" : "off"} done`);
      }
    }
    const r = (v: number) => Math.round(v * 10) / 10;
    const off = median(s.ttftOff);
    return [
      { figure: `prompt → first token (model answers after ${FIRST_BYTE_DELAY_MS} ms), checkpoints off`, value: r(off), unit: "ms" },
      { figure: "first prompt of a process → first token, checkpoints off", value: r(median(s.ttftOffFirst)), unit: "ms" },
      { figure: "first prompt of a process → first token, checkpoints on (first checkpoint)", value: r(median(s.ttftOnFirst)), unit: "ms" },
      { figure: "prompt → first token, checkpoints on, next checkpoints", value: r(median(s.ttftOnNext)), unit: "ms" },
      { figure: "time a checkpoint adds to the first token (next, on − off)", value: r(median(s.ttftOnNext) - off), unit: "ms" },
      { figure: "CLI, 5,000 files: prompt → checkpoint_created, first", value: r(median(s.checkpointFirst)), unit: "ms" },
      { figure: "CLI, 5,000 files: prompt → checkpoint_created, next", value: r(median(s.checkpointNext)), unit: "ms" },
    ];
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

// `node --import tsx bench/checkpoints-prompt.ts`: these rows alone.
if (process.argv[1]?.endsWith("checkpoints-prompt.ts")) {
  benchCheckpointPrompts((m) => process.stderr.write(`[bench] ${m}\n`)).then((figures) => {
    for (const f of figures) process.stdout.write(`${f.figure}: ${f.value} ${f.unit}\n`);
  });
}
