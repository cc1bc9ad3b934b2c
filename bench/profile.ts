// Ad-hoc: one pith run of a workload under --cpu-prof (profiles land in the dir given as argv[3]).
// Usage: node --import tsx bench/profile.ts <stream|startup|turns|switch|long|big> <profile dir> [extra pith args...]
import { pith } from "./lib/agents.js";
import { removeTemps } from "./lib/temp.js";
import { switchSession } from "./switch-workload.js";
import { bigResult, startup, streamDefault, toolTurns200, toolTurnsWorkload } from "./workloads.js";

const [kind, dir, ...extra] = process.argv.slice(2);
const base = pith.launch.bind(pith);
const profiled = { ...pith, launch: (o: Parameters<typeof pith.launch>[0]) => {
  const l = base({ ...o, extraArgs: [...(o.extraArgs ?? []), ...extra] });
  return { ...l, args: ["--cpu-prof", "--cpu-prof-dir", dir, ...l.args] };
} };
const w = kind === "stream" ? streamDefault : kind === "turns" ? toolTurns200 : kind === "switch" ? switchSession : kind === "long" ? toolTurnsWorkload(800, true) : kind === "big" ? bigResult : startup;
const r = await w.run(profiled);
console.log(JSON.stringify(r));
removeTemps();
