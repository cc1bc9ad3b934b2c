// Crash safety: pith is killed with SIGKILL at random points of scripted sessions,
// dozens of times, and every time the session file must load and hold everything the host had
// been told about before the kill.
//
// What "acknowledged" means here: pith persists a message (one synchronous
// write of one line) before it emits the message's `message_end` frame, and it answers
// `set_session_name` after appending the `session_info` entry. So every message whose
// `message_end` frame the host received, and every name whose success response it received,
// must be in the file, in order. One exception by design: a NEW session is kept in memory until
// its first assistant message, so before the host has seen an assistant `message_end` in a
// session nothing is promised (if the file exists anyway, it must still load and hold the
// acknowledged messages).
//
// Each iteration continues the previous iteration's file with `--session <file>` (taking over
// the stale lock of the killed process, truncating nothing that was acknowledged), or starts a
// new session when the last one never reached the disk (and every sixth time anyway). After each kill the file is loaded
// directly through the store (`SessionStorage.open`, read-only) and, on the next start, over RPC (`get_messages`).
// The kill points come from a seeded PRNG; set CRASH_SEED to replay a failing run. They are
// counted in pith's own frames from the start of its first run (plus a few random
// milliseconds), not in wall time: on a busy machine a timed kill lands during startup every
// time, and the test would prove nothing about running turns or reloads.
// The same run against the session database (`--session-store postgres://…`): each append is one
// transaction committed before the host hears of it, so the rows hold every acknowledged entry,
// once, and the writer lock dies with the killed process's connection. CRASH_ITERATIONS sets the
// number of kills per store (default 30).
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createJsonlStorage, type SessionStorage } from "../../src/store/index.js";
import { createPostgresStorage, type DatabaseStorage } from "../../src/store/postgres/index.js";
import { usePostgres } from "../support/pg-test.js";
import { Pith, tempDir, type Frame } from "./harness.js";

/** Kills in all, shared by the chains (CRASH_ITERATIONS for a longer soak). */
const ITERATIONS = Number(process.env.CRASH_ITERATIONS ?? 30);
/** Kill points are spread over this many frames after the first run starts (about three runs). */
const KILL_SPAN_FRAMES = 90;
/** Frames of one run of the script, about: a new session is killed within its first run half the time. */
const RUN_FRAMES = 30;
const pgdb = usePostgres();
let db: DatabaseStorage | undefined;
afterAll(() => db?.close());

interface StoreUnderTest {
  storage: SessionStorage;
  args: string[];
  /** Resolves once nothing of the killed process `pid` can still write. */
  gone(pid: number): Promise<void>;
}

/** The store the test reads the session back from, and the flags that give pith the same store. */
async function storeFor(kind: "jsonl" | "postgres"): Promise<StoreUnderTest> {
  if (kind === "jsonl") return { storage: createJsonlStorage(), args: [], gone: async () => {} };
  db ??= await createPostgresStorage({ url: pgdb.url, env: {} });
  // A killed process's server backend may still commit the entry it was sent (one the host never
  // heard of, as a write that reached the file before a kill): read once it is gone.
  return { storage: db, args: ["--session-store", pgdb.url], gone: (pid) => pgdb.connectionGone(pid) };
}
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);

function prng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 0x1_0000_0000;
  };
}


/** A looping script: a tool call (ls), then a streamed text answer; usage is explicit. */
function writeScript(dir: string): string {
  const words = Array.from({ length: 12 }, (_, i) => `w${i} `);
  const script = {
    loop: true,
    replies: [
      { toolCalls: [{ name: "ls", arguments: { path: "." } }], usage: { input: 100, output: 10 }, delayMs: 2 },
      { text: words, chunkDelayMs: 3, usage: { input: 120, output: 12 } },
    ],
  };
  const file = path.join(dir, "crash-script.json");
  fs.writeFileSync(file, JSON.stringify(script));
  return file;
}

const INTERRUPTED = "Tool execution was interrupted (session recovery).";

/** Ids of the tool calls that have no result among `messages`, in order. */
function unpairedCalls(messages: Frame[]): string[] {
  const answered = new Set(messages.filter((m) => m.role === "toolResult").map((m) => m.toolCallId));
  return messages.flatMap((m) => (m.role === "assistant" ? (m.content as Frame[]).filter((b) => b.type === "toolCall" && !answered.has(b.id)).map((b) => b.id as string) : []));
}

const keyOf = (m: Frame): string => `${m.role}|${m.timestamp}|${JSON.stringify(m.content ?? null)}`;

/** Whether `needles` occur in `hay` in order (not necessarily adjacent). */
function missingFromSequence(needles: string[], hay: string[]): string | undefined {
  let j = 0;
  for (const n of needles) {
    while (j < hay.length && hay[j] !== n) j++;
    if (j === hay.length) return n;
    j++;
  }
  return undefined;
}

interface Acked {
  messages: string[];
  sawAssistant: boolean;
  names: string[];
}

/**
 * Prompts until killed. `streamingBehavior: "followUp"` never rejects: idle → a new run, busy →
 * queued. Most prompts wait for the run's end; some are fired mid-run.
 */
async function drive(p: Pith, iter: number, rand: () => number, stopped: () => boolean): Promise<void> {
  for (let k = 0; !stopped(); k++) {
    const from = p.frames.length;
    p.send({ id: `p${k}`, type: "prompt", message: `iteration ${iter} prompt ${k}`, streamingBehavior: "followUp" });
    if (rand() < 0.25) p.send({ id: `n${k}`, type: "set_session_name", name: `name ${iter}.${k}` });
    if (rand() < 0.3) {
      await sleep(rand() * 30);
      continue;
    }
    if (stopped()) return;
    // the run's end, or the kill (p.exited), whichever comes first
    await Promise.race([p.waitFor((f) => f.type === "agent_end", 120_000, from).catch(() => undefined), p.exited]);
  }
}

/** Resolves once `count` more frames have arrived, or pith has exited. */
async function framesLater(p: Pith, count: number): Promise<void> {
  let left = count;
  if (left <= 0) return;
  await Promise.race([p.waitFor(() => --left <= 0, 120_000, p.frames.length).catch(() => undefined), p.exited]);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function acknowledged(frames: Frame[], sent: string[]): Acked {
  const acked: Acked = { messages: [], sawAssistant: false, names: [] };
  for (const f of frames) {
    if (f.type === "message_end") {
      acked.messages.push(keyOf(f.message));
      if (f.message.role === "assistant") acked.sawAssistant = true;
    } else if (f.type === "response" && f.command === "set_session_name" && f.success) {
      const i = Number(String(f.id).slice(1));
      acked.names.push(sent[i]);
    }
  }
  return acked;
}

/** One chain of kills, each start continuing the file the previous kill left. */
async function killChain(kind: "jsonl" | "postgres", seed: number, iterations: number): Promise<void> {
  const { storage, args: storeArgs, gone } = await storeFor(kind);
  const rand = prng(seed);
  const open: Pith[] = [];
  try {
    const home = tempDir("pith-crash-home-");
    const cwd = tempDir("pith-crash-cwd-");
    const script = writeScript(cwd);
    let file: string | undefined;
    let expected: string[] = [];
    let unpaired: string[] = [];
    let diskName: string | undefined;
    let reloads = 0;
    let killsMidRun = 0;

    for (let iter = 0; iter < iterations; iter++) {
      // every sixth iteration starts a new session, so the lazy first write gets killed too
      if (iter % 6 === 5) file = undefined;
      const continued = file !== undefined;
      const args = ["--provider", "scripted", "--model", script, ...storeArgs, ...(file ? ["--session", file] : [])];
      const p = await Pith.start({ pithHome: home, cwd, args });
      open.push(p);
      const state = await p.request({ type: "get_state" });
      if (file) {
        // reload over RPC: same file, and the context holds everything the file held
        expect(state.data.sessionFile).toBe(file);
        expect(state.data.sessionName).toBe(diskName);
        const msgs = await p.request({ type: "get_messages" });
        // a call the kill left without a result gets one in the context (the file is not rewritten)
        const recovered = (msgs.data.messages as Frame[]).filter((m) => m.role === "toolResult" && m.content?.[0]?.text === INTERRUPTED);
        const ctx = (msgs.data.messages as Frame[]).filter((m) => !recovered.includes(m)).map(keyOf);
        expect(ctx, `iteration ${iter}: the reloaded context differs from the file (seed ${seed})`).toEqual(expected);
        expect(recovered.map((m) => m.toolCallId), `iteration ${iter}: recovered results (seed ${seed})`).toEqual(unpaired);
        reloads++;
      } else {
        file = state.data.sessionFile as string;
        expected = [];
        unpaired = [];
        diskName = undefined;
      }

      const sentNames = Array.from({ length: 1000 }, (_, k) => `name ${iter}.${k}`);
      let killed = false;
      const runFrom = p.frames.length;
      const driving = drive(p, iter, rand, () => killed).catch((err: unknown) => err);
      await p.waitFor((f) => f.type === "agent_start", 60_000, runFrom);
      const span = !continued && rand() < 0.5 ? RUN_FRAMES : KILL_SPAN_FRAMES;
      await framesLater(p, Math.floor(rand() * span));
      await sleep(rand() * 5);
      killed = true;
      p.child.kill("SIGKILL");
      if (p.events("agent_start").length > p.events("agent_end").length) killsMidRun++;
      await p.exited;
      await driving;
      await gone(p.child.pid as number);

      const acked = acknowledged(p.frames, sentNames);
      const mustHold = [...expected, ...acked.messages];
      if (!storage.exists(file)) {
        // only a new session that never acknowledged an assistant reply may be absent
        expect(continued, `iteration ${iter}: ${file} disappeared (seed ${seed})`).toBe(false);
        expect(acked.sawAssistant, `iteration ${iter}: an assistant reply was acknowledged but ${file} is missing`).toBe(false);
        file = undefined;
        continue;
      }

      // load directly: never throws, holds every acknowledged message in order, nothing twice
      const store = storage.open(file, { cwd, readOnly: true });
      const inFile = store.entries().flatMap((e) => (e.type === "message" ? [keyOf(e.message)] : []));
      expect(missingFromSequence(mustHold, inFile), `iteration ${iter}: ${file} lost an acknowledged message (seed ${seed})`).toBeUndefined();
      expect(new Set(inFile).size, "no message was written twice").toBe(inFile.length);
      expect(store.leafId).toBe(store.entries()[store.entries().length - 1]?.id ?? null);
      // the name: the last acknowledged one or one sent after it (written, not yet answered)
      const lastAcked = acked.names[acked.names.length - 1];
      const allowed = lastAcked !== undefined ? sentNames.slice(sentNames.indexOf(lastAcked)) : [diskName, ...sentNames];
      expect(allowed, `iteration ${iter}: session name (seed ${seed})`).toContain(store.name);
      diskName = store.name;
      // what the file holds beyond the acknowledged entries is what the next reload must show
      expected = inFile;
      unpaired = unpairedCalls(store.entries().flatMap((e) => (e.type === "message" ? [e.message as Frame] : [])));
      store.close();
    }
    console.info(`crash test, ${kind} (seed ${seed}): ${iterations} kills, ${reloads} reloads, ${killsMidRun} mid-run, ${expected.length} messages in the last file`);
    // the random points must really have hit running turns and reloads, or the test proves little
    expect(reloads).toBeGreaterThan(iterations / 2);
    expect(killsMidRun).toBeGreaterThan(iterations / 4);
  } finally {
    for (const p of open) if (p.child.exitCode === null) p.child.kill("SIGKILL");
  }
}

// Two independent chains (seeds SEED and SEED + 1) run side by side: each kill waits on a
// process starting up, and two chains share that wait.
describe.each(["jsonl", "postgres"] as const)("crash safety (%s)", (kind) => {
  const perChain = Math.ceil(ITERATIONS / 2);
  for (const seed of [SEED, SEED + 1]) {
    it.concurrent(
      `every acknowledged entry survives kill -9 at random points (seed ${seed})`,
      async (ctx) => {
        if (kind === "postgres" && pgdb.skip) return ctx.skip(pgdb.skip);
        await killChain(kind, seed, perChain);
      },
      Math.max(120_000, perChain * 8_000),
    );
  }
});
