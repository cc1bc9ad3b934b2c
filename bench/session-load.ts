// In-process cost of loading a session (what switch_session does besides IPC): SessionStore.open
// (read + parse + migrate + index), buildSessionContext, todosFromHistory, on a file written by
// lib/sessions.ts in pith's format. Prints the median of each step over R repetitions after a
// warm-up, so the figures are "warm" as in the bench's switch_session.
// Usage: node --import tsx bench/session-load.ts [turns=2000] [reps=30]
import { readFileSync } from "node:fs";
import { writeSession } from "./lib/sessions.js";
import { makeTemp, removeTemps } from "./lib/temp.js";
import { parseSessionBuffer } from "../src/store/jsonl-parse.js";
import { migrate } from "../src/store/migrate.js";
import { SessionStore } from "../src/store/session-store.js";
import { buildSessionContext } from "../src/store/build-context.js";
import { todosFromHistory } from "../src/session/todos/index.js";

const turns = Number(process.argv[2] ?? 2000);
const reps = Number(process.argv[3] ?? 30);
const cwd = makeTemp("bench-load-cwd-");
const file = writeSession("pith", makeTemp("bench-load-"), cwd, turns);

const times = new Map<string, number[]>();
function timed<T>(name: string, fn: () => T): T {
  const t0 = performance.now();
  const v = fn();
  const list = times.get(name) ?? [];
  list.push(performance.now() - t0);
  times.set(name, list);
  return v;
}

for (let i = 0; i < reps + 5; i++) {
  if (i === 5) times.clear();
  const buf = timed("read", () => readFileSync(file));
  const parsed = timed("parse", () => parseSessionBuffer(buf, file));
  timed("migrate", () => migrate(parsed.first!, parsed.records, file));
  const store = timed("SessionStore.open (all of the above + index + lock)", () => SessionStore.open(file, { cwd }));
  const ctx = timed("buildSessionContext", () => buildSessionContext(store));
  timed("todosFromHistory", () => todosFromHistory(ctx.messages));
  timed("close", () => store.close());
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`${turns} turns, ${readFileSync(file).length} bytes, median of ${reps}:`);
for (const [name, xs] of times) console.log(`${median(xs).toFixed(2).padStart(8)} ms  ${name}`);
removeTemps();
