import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createNodeExecOps } from "../ops/exec-ops.js";
import { runTool } from "../run-tool.js";
import { makeCtx, makeTempDir, textOf } from "../../../test/support/tools.js";
import { createBashTool } from "./index.js";

let tmp: ReturnType<typeof makeTempDir>;
const makeTool = () => createBashTool({ exec: createNodeExecOps({ killGraceMs: 500 }), tempDir: tmp.dir, updateIntervalMs: 20 });
beforeEach(() => (tmp = makeTempDir()));
afterEach(() => tmp.cleanup());

/** Alive and not a zombie. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ESRCH") return false;
    throw err;
  }
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  return !/^\d+ \(.*\) Z/.test(stat);
}

async function until(cond: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (cond()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`gave up waiting for ${what}`);
}

describe("bash", () => {
  it("runs in the cwd and returns merged output", async () => {
    const out = await runTool(makeTool(), { command: "pwd; echo err >&2" }, makeCtx(tmp.dir));
    expect(out.isError).toBe(false);
    expect(textOf(out.result)).toBe(`${tmp.dir}\nerr`);
  });
  it("sets the non-interactive environment", async () => {
    expect(textOf((await runTool(makeTool(), { command: "echo $PAGER $GIT_TERMINAL_PROMPT" }, makeCtx(tmp.dir))).result)).toBe("cat 0");
  });
  it("says (no output) for silence", async () => {
    expect(textOf((await runTool(makeTool(), { command: "true" }, makeCtx(tmp.dir))).result)).toBe("(no output)");
  });
  it("reports a non-zero exit code as an error with the output", async () => {
    const out = await runTool(makeTool(), { command: "echo out; exit 3" }, makeCtx(tmp.dir));
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toBe("out\n\nCommand exited with code 3");
  });
  it("streams the accumulated output through onUpdate", async () => {
    const ctx = makeCtx(tmp.dir);
    const out = await runTool(makeTool(), { command: "for i in 1 2 3; do echo line$i; sleep 0.1; done" }, ctx);
    expect(textOf(out.result)).toBe("line1\nline2\nline3");
    expect(ctx.updates.length).toBeGreaterThan(0);
    expect(textOf(ctx.updates[0])).toContain("line1");
    for (const u of ctx.updates) {
      expect("line1\nline2\nline3\n".startsWith(textOf(u))).toBe(true);
      expect(u.details).toEqual({});
    }
  });
  it("times out, killing the command", async () => {
    const out = await runTool(makeTool(), { command: "echo started; sleep 20", timeout: 0.3 }, makeCtx(tmp.dir));
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toBe("started\n\nCommand timed out after 0.3 seconds");
  });
  it("abort kills the whole process group, background grandchildren included", async () => {
    const pidFile = join(tmp.dir, "bg.pid");
    const ac = new AbortController();
    const ctx = makeCtx(tmp.dir, { signal: ac.signal });
    const running = runTool(makeTool(), { command: `sleep 30 & echo $! > ${pidFile}; wait` }, ctx);
    await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the background pid");
    const pid = Number(readFileSync(pidFile, "utf8"));
    expect(isAlive(pid)).toBe(true);
    ac.abort();
    const out = await running;
    expect(out.isError).toBe(true);
    expect(textOf(out.result)).toBe("Command aborted");
    await until(() => !isAlive(pid), "the grandchild to die");
  });
  it("keeps the tail and saves the full output to a file", async () => {
    const out = await runTool(makeTool(), { command: "seq 1 5000" }, makeCtx(tmp.dir));
    const details = out.result.details as { fullOutputPath: string };
    const text = textOf(out.result);
    expect(text.startsWith("3001\n")).toBe(true);
    expect(text).toContain("\n5000\n\n");
    expect(text.endsWith(`[Showing lines 3001-5000 of 5000. Full output: ${details.fullOutputPath}]`)).toBe(true);
    expect(details.fullOutputPath.startsWith(tmp.dir)).toBe(true);
    const full = readFileSync(details.fullOutputPath, "utf8");
    expect(full.split("\n").length).toBe(5001);
    expect(full.startsWith("1\n2\n")).toBe(true);
  });
  it("cuts by bytes with the size in the notice", async () => {
    const line = "a".repeat(100);
    const out = await runTool(makeTool(), { command: `yes ${line} | head -n 1500` }, makeCtx(tmp.dir));
    const text = textOf(out.result);
    expect(text).toMatch(/\[Showing lines \d+-1500 of 1500 \(50\.0KB limit\)\. Full output: .+\]$/);
    const body = text.slice(0, text.lastIndexOf("\n\n["));
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(50 * 1024);
    expect(body.split("\n").every((l) => l === line)).toBe(true);
  });
  it("is exclusive and abortable", () => {
    expect(makeTool()).toMatchObject({ concurrency: "exclusive", source: "builtin" });
    expect(makeTool().nonAbortable).toBeFalsy();
  });
});
