// File checkpoints (src/checkpoints) of a generated 5,000-file project, in-process on the real
// git: the first checkpoint (fresh shadow repository, every file hashed), the next ones with
// nothing changed and with 5 files changed (the session index's stat cache re-hashes only
// those), then a diff of the first checkpoint to the files now (25 files changed since) and a
// restore of it (with its undo checkpoint). Medians over 3 fresh homes.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openCheckpointStore, probeGit, type CheckpointStore } from "../src/checkpoints/index.js";

const FILES = 5_000;
const PER_DIR = 50;
const REPS = 3;
const NEXT_TAKES = 5;

export interface Figure {
  figure: string;
  value: number;
  unit: string;
}

/** 100 folders of 50 files, spread over 10 packages. */
function fileDir(root: string, n: number): string {
  const d = Math.floor(n / PER_DIR);
  return join(root, `pkg${d % 10}`, `mod${d}`);
}

export async function generateProject(root: string): Promise<void> {
  await writeFile(join(root, ".gitignore"), "dist/\n*.log\n");
  const jobs: Array<[string, string]> = [];
  for (let n = 0; n < FILES; n++) {
    const dir = fileDir(root, n);
    if (n % PER_DIR === 0) mkdirSync(dir, { recursive: true });
    jobs.push([join(dir, `file${n}.ts`), `export const v${n} = ${n};\n`.repeat(1 + (n % 40))]);
  }
  for (let i = 0; i < jobs.length; i += 500) await Promise.all(jobs.slice(i, i + 500).map(([p, b]) => writeFile(p, b)));
  mkdirSync(join(root, "node_modules", "dep"), { recursive: true });
  await writeFile(join(root, "node_modules", "dep", "index.js"), "module.exports = 1;\n");
}

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const value = await fn();
  return [performance.now() - t0, value];
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function changeFiles(project: string, round: number): Promise<void> {
  for (let k = 0; k < 5; k++) {
    const n = (round * 997 + k * 131) % FILES;
    await writeFile(join(fileDir(project, n), `file${n}.ts`), `export const changed = ${round};\n`);
  }
}

async function oneHome(project: string, gitPath: string, pathEnv: string | undefined, out: Record<string, number[]>): Promise<void> {
  const home = mkdtempSync(join(tmpdir(), "pith-bench-cp-home-"));
  const push = (key: string, v: number) => (out[key] ??= []).push(v);
  try {
    const store: CheckpointStore = openCheckpointStore({ home, cwd: project, gitPath, pathEnv });
    const take = () => store.take({ sessionId: "bench", kind: "prompt" }).then((c) => c!);
    const [first, base] = await timed(take);
    if (base.files !== FILES + 1) throw new Error(`checkpoint holds ${base.files} files, expected ${FILES + 1}`);
    push("first", first);
    await store.idle(); // the first checkpoint schedules retention; keep it out of the next figures
    const unchanged: number[] = [];
    const changed: number[] = [];
    for (let i = 0; i < NEXT_TAKES; i++) unchanged.push((await timed(take))[0]);
    let last = base;
    for (let i = 0; i < NEXT_TAKES; i++) {
      await changeFiles(project, out.first.length * 100 + i);
      [changed[i], last] = await timed(take);
    }
    push("unchanged", median(unchanged));
    push("changed", median(changed));
    push("diff", (await timed(() => store.diff(base.checkpointId, undefined, { sessionId: "bench" })))[0]);
    const [restoreMs, restored] = await timed(() => store.restore(base.checkpointId, { sessionId: "bench" }));
    if (restored.restored.length === 0) throw new Error("restore wrote nothing");
    push("restore", restoreMs);
    await store.restore(last.checkpointId, { sessionId: "bench" });
    await store.idle();
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

export async function benchCheckpoints(pathEnv: string | undefined): Promise<Figure[]> {
  const probe = await probeGit({ pathEnv });
  if (!probe.available) {
    console.error(`checkpoints-bench: ${probe.reason}; skipping`);
    return [];
  }
  const project = mkdtempSync(join(tmpdir(), "pith-bench-cp-"));
  try {
    await generateProject(project);
    const samples: Record<string, number[]> = {};
    for (let rep = 0; rep < REPS; rep++) await oneHome(project, probe.gitPath, pathEnv, samples);
    const row = (figure: string, key: string): Figure => ({ figure, value: Math.round(median(samples[key]) * 10) / 10, unit: "ms" });
    return [
      row("checkpoint 5,000 files: first", "first"),
      row("checkpoint 5,000 files: next, unchanged", "unchanged"),
      row("checkpoint 5,000 files: next, 5 changed", "changed"),
      row("checkpoint 5,000 files: diff first → now", "diff"),
      row("checkpoint 5,000 files: restore first", "restore"),
    ];
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}
