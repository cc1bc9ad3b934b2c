// Issue 19 item 5: opening a ~100 MB session (20,000 tool-using turns, 80,000 messages) with
// `switch_session` in a fresh process, with a compaction every 1,000 turns (the context is the
// last ~4,000 messages) and without any. Per run: a fresh agent, idle once it answers get_state
// (plus 2 s: oh-my-pi's RSS settles about 1 s after its first answer), its VmRSS then, and its
// VmHWM reset to that (so the peak is the load's, not the startup's); switch_session timed to its
// response (wall, and the agent's CPU time over it, all threads: steadier than wall on a loaded
// machine); VmRSS and VmHWM (peak) right after it, both minus the idle VmRSS. A following
// get_messages must return the context's message count, so a load that fails or drops messages
// cannot pass as a fast one (asked after the figures are read: a 100 MB response raises the peak).
// Alone: `node --import tsx bench/run.ts --only="large session"` (after `npm run build`).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Agent, AgentName } from "./lib/agents.js";
import { LARGE_SHAPE, writeLargeSession, type LargeSession, type LargeSessionShape } from "./lib/large-session.js";
import type { AgentProc } from "./lib/proc.js";
import type { FigureSpec } from "./lib/table.js";
import { makeTemp } from "./lib/temp.js";
import { withProc, type Workload } from "./workloads.js";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Variant {
  name: string;
  label: string;
  shape: LargeSessionShape;
}

const generated = new Map<string, { cwd: string; session: LargeSession }>();

/** One file per agent format and variant, written once per bench run, outside any timing. */
function sessionFor(format: AgentName, v: Variant): { cwd: string; session: LargeSession } {
  const key = `${format}:${v.name}`;
  const done = generated.get(key);
  if (done) return done;
  const cwd = makeTemp("bench-cwd-");
  const session = writeLargeSession(format, makeTemp(`bench-large-${format}-`), cwd, v.shape);
  generated.set(key, { cwd, session });
  return { cwd, session };
}

/**
 * The context's message count by get_messages; oh-my-pi refuses a response over its 1 MiB frame
 * limit ("RPC response exceeded the transport limit"), so there its get_messages_page total.
 */
async function contextCount(p: AgentProc): Promise<number | string> {
  const res = await p.request({ type: "get_messages" }, 180_000);
  if (res.success) return (res.data?.messages as unknown[]).length;
  if (!/transport limit/.test(String(res.error))) return `an error (${String(res.error)})`;
  const page = await p.request({ type: "get_messages_page", limit: 1 }, 180_000);
  return page.success ? (page.data?.totalMessages as number) : `an error (${String(page.error)})`;
}

async function openLarge(p: AgentProc, session: LargeSession, k: (s: string) => string): Promise<Record<string, number>> {
  await p.request({ type: "get_state" }, 30_000);
  await sleep(2000);
  p.resetPeak();
  const idle = p.memMiB().rss;
  const cpu0 = p.cpuMs();
  const t0 = performance.now();
  const res = await p.request({ type: "switch_session", sessionPath: session.file }, 180_000);
  const ms = performance.now() - t0;
  const after = p.memMiB();
  const cpu = p.cpuMs() - cpu0;
  if (!res.success || res.data?.cancelled) throw new Error(`switch_session failed: ${String(res.error ?? "cancelled")}`);
  const count = await contextCount(p);
  if (count !== session.contextMessages) throw new Error(`get_messages returned ${count} messages, expected ${session.contextMessages}`);
  // A load that rewrites the file (a migration, say) does other work than the one measured;
  // appending is fine (pi records its thinking level on resume).
  const now = readFileSync(session.file);
  const kept = now.length >= session.bytes && createHash("sha256").update(now.subarray(0, session.bytes)).digest("hex") === session.sha256;
  if (!kept) throw new Error("the agent rewrote the session file while opening it");
  return { [k("ms")]: ms, [k("cpu")]: cpu, [k("rss")]: after.rss - idle, [k("peak")]: after.peak - idle, [k("idle")]: idle };
}

function largeSessionWorkload(v: Variant): Workload {
  const k = (s: string) => `large:${v.name}:${s}`;
  const specs: FigureSpec[] = [
    { key: k("ms"), label: `large session 100 MB (${v.label}): switch_session`, unit: "ms" },
    { key: k("cpu"), label: `large session 100 MB (${v.label}): switch_session agent CPU`, unit: "ms" },
    { key: k("rss"), label: `large session 100 MB (${v.label}): RSS above idle`, unit: "MiB", digits: 1 },
    { key: k("peak"), label: `large session 100 MB (${v.label}): peak above idle`, unit: "MiB", digits: 1 },
    { key: k("idle"), label: `large session 100 MB (${v.label}): idle RSS before`, unit: "MiB", digits: 1 },
  ];
  return {
    name: `large session ${v.label}`,
    specs,
    withOmp: true,
    run: (agent: Agent) => {
      const { cwd, session } = sessionFor(agent.name, v);
      return withProc(agent, [], (p) => openLarge(p, session, k), { sessions: true, cwd });
    },
  };
}

export const largeSessionCompacted = largeSessionWorkload({ name: "compacted", label: "compactions", shape: { ...LARGE_SHAPE, compactEvery: 1000 } });
export const largeSessionFull = largeSessionWorkload({ name: "full", label: "no compactions", shape: LARGE_SHAPE });
