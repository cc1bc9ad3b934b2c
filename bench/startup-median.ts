// Spawn → first get_state response of `node dist/cli.js --mode rpc --no-session`, N times
// (default 15), printing the median, min and max, plus the median of `node -e 0` for scale.
// Usage: node --import tsx bench/startup-median.ts [N] [other/dist/cli.js]
// With a second cli path the two builds alternate (A/B on the same load) and both are reported.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const n = Number(process.argv[2] ?? 15);
const cli = new URL("../dist/cli.js", import.meta.url).pathname;
const other = process.argv[3];

/** utime + stime of a live process in ms (clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const cpu = new Map<string, number[]>();

function once(args: string[], env: NodeJS.ProcessEnv, untilGetState: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env, stdio: "pipe" });
    let buf = "";
    child.stdout.on("data", (c: Buffer) => {
      buf += c.toString("utf8");
      if (untilGetState && buf.includes('"command":"get_state"')) {
        const ms = performance.now() - t0;
        const list = cpu.get(args[0]) ?? [];
        list.push(cpuMs(child.pid as number));
        cpu.set(args[0], list);
        child.stdin.end();
        resolve(ms);
      }
    });
    child.on("error", reject);
    child.on("exit", (code) => {
      if (!untilGetState) resolve(performance.now() - t0);
      else if (!buf.includes('"command":"get_state"')) reject(new Error(`exited ${code} before get_state`));
    });
    if (untilGetState) child.stdin.write('{"type":"get_state","id":"s"}\n');
  });
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const home = mkdtempSync(join(tmpdir(), "pith-startup-"));
const env = { ...process.env, PITH_HOME: home };
const base: number[] = [];
const pith: number[] = [];
const alt: number[] = [];
const args = ["--mode", "rpc", "--no-session", "--no-extensions"];
for (let i = 0; i < n; i++) {
  base.push(await once(["-e", "0"], env, false));
  pith.push(await once([cli, ...args], env, true));
  if (other) alt.push(await once([other, ...args], env, true));
}
rmSync(home, { recursive: true, force: true });
const f = (x: number): string => x.toFixed(0);
console.log(`node -e 0: median ${f(median(base))} ms; pith spawn→get_state: median ${f(median(pith))} ms (min ${f(Math.min(...pith))}, max ${f(Math.max(...pith))}) over ${n}; CPU median ${f(median(cpu.get(cli) ?? [0]))} ms`);
if (other) console.log(`${other}: median ${f(median(alt))} ms (min ${f(Math.min(...alt))}, max ${f(Math.max(...alt))}); CPU median ${f(median(cpu.get(other) ?? [0]))} ms`);
