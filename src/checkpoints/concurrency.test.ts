// Two sessions, and two processes, taking checkpoints of one folder at the same time: every one
// succeeds, and every one records the folder exactly (one shadow repository, private indexes).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CheckpointStore } from "./store.js";
import { makeSandbox, makeStore, manifest, writeFiles, type Sandbox } from "../../test/support/checkpoints.js";
import type { Checkpoint } from "./types.js";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");

let sb: Sandbox;
let stores: CheckpointStore[] = [];

beforeEach(() => {
  sb = makeSandbox();
  writeFiles(sb.project, Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`d${i % 10}/f${i}.txt`, `file ${i}\n`])));
});

afterEach(async () => {
  for (const s of stores) await s.idle();
  stores = [];
  sb.cleanup();
});

async function takeMany(store: CheckpointStore, sessionId: string, n: number): Promise<Checkpoint[]> {
  return Promise.all(Array.from({ length: n }, () => store.take({ sessionId, kind: "prompt" }).then((c) => c!)));
}

describe("concurrent checkpoints in one folder", () => {
  it("two sessions (two stores, one fresh home) all succeed and agree", async () => {
    const a = await makeStore(sb);
    const b = await makeStore(sb);
    stores.push(a, b);
    const first = (await Promise.all([takeMany(a, "session-a", 4), takeMany(b, "session-b", 4)])).flat();
    const firstState = manifest(sb.project);
    expect(new Set(first.map((c) => c.tree)).size).toBe(1);
    expect(new Set(first.map((c) => c.checkpointId)).size).toBe(8);

    writeFiles(sb.project, { "d1/f1.txt": "changed\n", "new.txt": "new\n" });
    const second = (await Promise.all([takeMany(a, "session-a", 4), takeMany(b, "session-b", 4)])).flat();
    expect(new Set(second.map((c) => c.tree)).size).toBe(1);
    expect(second[0].tree).not.toBe(first[0].tree);
    expect((await a.list()).length).toBe(16);

    // A checkpoint one session took is restorable by the other.
    const fromB = first.find((c) => c.sessionId === "session-b")!;
    await a.restore(fromB.checkpointId, { sessionId: "session-a" });
    expect(manifest(sb.project)).toEqual(firstState);
  });

  it("two processes all succeed and agree", async () => {
    const script = join(ROOT, "test/support/checkpoint-taker.ts");
    const spawnTaker = (session: string) =>
      run(process.execPath, ["--import", "tsx", script, sb.home, sb.project, session, "5"], { cwd: ROOT, timeout: 60_000 });
    const outputs = await Promise.all([spawnTaker("proc-a"), spawnTaker("proc-b")]);
    const cps = outputs.flatMap((o) => o.stdout.trim().split("\n").map((l) => JSON.parse(l) as Checkpoint));
    expect(cps).toHaveLength(10);
    expect(new Set(cps.map((c) => c.tree)).size).toBe(1);
    expect(cps.every((c) => c.files === 200)).toBe(true);
    const s = await makeStore(sb);
    stores.push(s);
    expect((await s.list()).map((c) => c.checkpointId).sort()).toEqual(cps.map((c) => c.checkpointId).sort());
  });
});
