// One cold open of a large session file in a fresh process, as switch_session does it in-process:
// SessionStore.open + the context (buildSessionContext) + the reads a load makes (recorded
// "Allow always" rules, checkpoints). Prints the time and the RSS above this process's idle
// baseline (current and peak, from /proc/self/status VmHWM). `--full` forces the whole-file parse
// (the path used before the index) for comparison.
// Usage: node --import tsx bench/session-open.ts [file] [--full]
//   without a file: writes a 20,000-turn file (compaction every 1,000 turns) to a temp dir first;
//   `--turns N --compact-every K` change it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { SessionStore } from "../src/store/session-store.js";
import { buildSessionContext } from "../src/store/build-context.js";
import { writeLargeSession } from "./lib/large-session-pith.js";
import { makeTemp, removeTemps } from "./lib/temp.js";

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const full = args.includes("--full");
let file = args.find((a, i) => !a.startsWith("--") && !(i > 0 && args[i - 1].startsWith("--") && args[i - 1] !== "--full"));
if (!file) {
  file = path.join(makeTemp("bench-open-"), "large.jsonl");
  writeLargeSession(file, { turns: Number(flag("--turns") ?? 20000), compactEvery: Number(flag("--compact-every") ?? 1000), cwd: "/tmp" });
}

function statusKb(field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync("/proc/self/status", "utf8"));
  return m ? Number(m[1]) : NaN;
}
const mib = (kb: number): string => (kb / 1024).toFixed(1);

// warm the code paths on a tiny file so module loading and JIT are not counted
const tiny = path.join(makeTemp("bench-open-warm-"), "tiny.jsonl");
writeLargeSession(tiny, { turns: 20, compactEvery: 5, cwd: "/tmp" });
for (let i = 0; i < 3; i++) {
  const s = SessionStore.open(tiny, { cwd: "/tmp", index: !full });
  buildSessionContext(s);
  s.close();
}
global.gc?.();
const idle = statusKb("VmRSS");
// VmHWM is reset by writing 5 to /proc/self/clear_refs (Linux >= 4.0): the peak then covers the open only
try {
  (await import("node:fs")).writeFileSync("/proc/self/clear_refs", "5");
} catch {
  /* not permitted: the peak includes the warm-up */
}
const t0 = performance.now();
const store = SessionStore.open(file, { cwd: "/tmp", index: !full });
const ctx = buildSessionContext(store);
store.customEntries("custom", "pith:permission_allow");
store.customEntries("custom", "pith.checkpoint");
const ms = performance.now() - t0;
const rss = statusKb("VmRSS");
const peak = statusKb("VmHWM");
console.log(
  `${full ? "full parse" : "indexed"}: ${path.basename(file)} ${(readFileSync(file).length / 1e6).toFixed(1)} MB, ` +
    `${store.entryCount} entries, context ${ctx.messages.length} messages: open ${ms.toFixed(0)} ms, ` +
    `RSS +${mib(rss - idle)} MiB, peak +${mib(peak - idle)} MiB (idle ${mib(idle)} MiB)`,
);
store.close();
removeTemps();
