// grep/find over a generated 50,000-file tree, with the built-in walker and with ripgrep
// (when `rg` is on PATH). Figures are medians of 3 runs.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFindTool } from "../src/tools/find/index.js";
import { createGrepTool } from "../src/tools/grep/index.js";
import { createNodeFsOps } from "../src/tools/ops/fs-ops.js";
import { runTool } from "../src/tools/run-tool.js";
import { findOnPath } from "../src/tools/search/ripgrep.js";
import type { Tool } from "../src/tools/types.js";

const FILES = 50_000;
const PER_DIR = 100;

/** Small files, written 500 at a time in parallel (sequential writes take minutes on slow disks). */
async function generateTree(root: string): Promise<void> {
  await writeFile(join(root, ".gitignore"), "ignored/\n");
  for (let d = 0; d < FILES / PER_DIR; d++) {
    const dir = join(root, `pkg${d % 10}`, `mod${d}`);
    mkdirSync(dir, { recursive: true });
  }
  const jobs: Array<[string, string]> = [];
  for (let n = 0; n < FILES; n++) {
    const d = Math.floor(n / PER_DIR);
    const f = n % PER_DIR;
    const body = n % 1000 === 0 ? `export const v${n} = "needle";\n` : `export const v${n} = ${n};\n// filler line\n`;
    jobs.push([join(root, `pkg${d % 10}`, `mod${d}`, `file${f}.${f % 5 === 0 ? "ts" : "txt"}`), body]);
  }
  for (let i = 0; i < jobs.length; i += 500) await Promise.all(jobs.slice(i, i + 500).map(([p, b]) => writeFile(p, b)));
  mkdirSync(join(root, "ignored"));
  await writeFile(join(root, "ignored", "x.ts"), "needle\n");
}

async function median3(tool: Tool, args: Record<string, unknown>, cwd: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const out = await runTool(tool, args, { cwd, toolCallId: "bench", signal: new AbortController().signal, onUpdate: () => {} });
    times.push(performance.now() - start);
    if (out.isError) throw new Error(`${tool.name} failed: ${JSON.stringify(out.result.content)}`);
  }
  return times.sort((a, b) => a - b)[1];
}

export async function benchGrepFind(): Promise<Array<{ figure: string; value: number; unit: string }>> {
  const root = mkdtempSync(join(tmpdir(), "pith-bench-tools-"));
  try {
    await generateTree(root);
    const fs = createNodeFsOps();
    const rg = findOnPath("rg", process.env.PATH);
    const backends: Array<[string, string | null]> = [["walker", null]];
    if (rg) backends.push(["rg", rg]);
    else console.error("tools-bench: rg not on PATH; skipping the ripgrep figures");
    const figures: Array<{ figure: string; value: number; unit: string }> = [];
    for (const [label, rgPath] of backends) {
      const grep = createGrepTool({ fs, rgPath });
      const find = createFindTool({ fs, rgPath });
      figures.push({ figure: `grep 50k files (${label})`, value: Math.round(await median3(grep, { pattern: "needle" }, root)), unit: "ms" });
      figures.push({ figure: `find *.ts in 50k files (${label})`, value: Math.round(await median3(find, { pattern: "*.ts" }, root)), unit: "ms" });
    }
    return figures;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
