// Unknown, pruned and damaged checkpoints fail clearly and change nothing; retention keeps what
// is young; a missing git and an aborted call fail with their own reasons.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CheckpointError } from "./errors.js";
import { REF_PREFIX } from "./refs.js";
import { shadowLayout } from "./shadow-repo.js";
import type { CheckpointStore } from "./store.js";
import { makeSandbox, makeStore, manifest, realGit, writeFiles, type Sandbox } from "../../test/support/checkpoints.js";

const DAY = 24 * 60 * 60 * 1000;
let sb: Sandbox;
let stores: CheckpointStore[];

beforeEach(() => {
  sb = makeSandbox();
  stores = [];
  writeFiles(sb.project, { "a.txt": "one\n", "dir/b.txt": "two\n" });
});

afterEach(async () => {
  await settle();
  sb.cleanup();
});

/** Waits for every store's work, its automatic retention run included. */
async function settle(): Promise<void> {
  for (const s of stores) await s.idle();
}

async function store(over: Parameters<typeof makeStore>[1] = {}): Promise<CheckpointStore> {
  const s = await makeStore(sb, over);
  stores.push(s);
  return s;
}

/** Runs git on the shadow repository, as a test's way to look behind the store. */
async function shadowGit(args: string[]): Promise<string> {
  const layout = await shadowLayout(sb.home, sb.project);
  return execFileSync(await realGit(), args, { env: { GIT_DIR: layout.gitDir, GIT_CONFIG_NOSYSTEM: "1", HOME: layout.root }, encoding: "utf8" });
}

async function expectNothingChanged(s: CheckpointStore, run: () => Promise<unknown>, reason: string): Promise<CheckpointError> {
  const before = manifest(sb.project);
  const refsBefore = (await s.list()).map((c) => c.checkpointId);
  const err = await run().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(CheckpointError);
  expect((err as CheckpointError).reason).toBe(reason);
  expect(manifest(sb.project)).toEqual(before);
  expect((await s.list()).map((c) => c.checkpointId)).toEqual(refsBefore);
  return err as CheckpointError;
}

describe("unknown checkpoints", () => {
  it("fail with not_found and change nothing", async () => {
    const s = await store();
    await s.take({ sessionId: "s", kind: "prompt" });
    writeFiles(sb.project, { "a.txt": "changed\n" });
    const err = await expectNothingChanged(s, () => s.restore("7fffffffffffffff", { sessionId: "s" }), "unknown_checkpoint");
    expect(err.code).toBe("not_found");
    expect(err.message).toBe("Unknown checkpoint: 7fffffffffffffff");
    await expectNothingChanged(s, () => s.restore("../../etc", { sessionId: "s" }), "unknown_checkpoint");
    await expectNothingChanged(s, () => s.diff("0000000000000000"), "unknown_checkpoint");
  });

  it("reject a recorded commit that belongs to another checkpoint", async () => {
    const s = await store();
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    await expectNothingChanged(s, () => s.restore({ checkpointId: "7fffffffffffffff", commit: cp!.commit }, { sessionId: "s" }), "unknown_checkpoint");
  });
});

describe("retention", () => {
  it("prunes checkpoints older than retentionDays; they then fail as pruned and change nothing", async () => {
    const now = Date.now();
    const early = await store({ now: () => now });
    const old = await early.take({ sessionId: "s", kind: "prompt" });
    writeFiles(sb.project, { "a.txt": "ten days later\n", "c.txt": "new\n" });
    const later = await store({ now: () => now + 10 * DAY });
    const young = await later.take({ sessionId: "s", kind: "prompt" });
    const youngState = manifest(sb.project);
    writeFiles(sb.project, { "a.txt": "fifteen days later\n" });

    await settle();
    const s = await store({ now: () => now + 15 * DAY });
    expect(await s.prune()).toEqual({ removed: [old!.checkpointId] });
    expect((await s.list()).map((c) => c.checkpointId)).toEqual([young!.checkpointId]);
    expect(await shadowGit(["cat-file", "-t", old!.commit]).catch((e: Error) => e.message)).toMatch(/Not a valid object name|could not get object info/);

    const err = await expectNothingChanged(s, () => s.restore(old!.checkpointId, { sessionId: "s" }), "pruned");
    expect(err.message).toBe(`Checkpoint ${old!.checkpointId} is no longer available: its files were pruned`);
    await expectNothingChanged(s, () => s.restore({ checkpointId: old!.checkpointId, commit: old!.commit }, { sessionId: "s" }), "pruned");
    await expectNothingChanged(s, () => s.diff(old!.checkpointId, young!.checkpointId), "pruned");

    await s.restore(young!.checkpointId, { sessionId: "s" });
    expect(manifest(sb.project)).toEqual(youngState);
  });

  it("prunes checkpoints whose files went into packs, keeping one pack of what stays", async () => {
    const many = (v: string) => Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`m/f${i}.txt`, `${v} ${i}\n`]));
    writeFiles(sb.project, many("v1"));
    const now = Date.now();
    const old = await (await store({ now: () => now })).take({ sessionId: "s", kind: "prompt" });
    writeFiles(sb.project, many("v2"));
    const young = await (await store({ now: () => now + 10 * DAY })).take({ sessionId: "s", kind: "prompt" });
    const youngState = manifest(sb.project);
    const { gitDir } = await shadowLayout(sb.home, sb.project);
    const packs = () => readdirSync(join(gitDir, "objects", "pack")).filter((n) => n.endsWith(".pack"));
    // one pack per snapshot, or already one when the store's background work has merged them
    expect(packs().length).toBeGreaterThanOrEqual(1);
    const oldBlob = (await shadowGit(["rev-parse", `${old!.tree}:m/f1.txt`])).trim();
    expect(existsSync(join(gitDir, "objects", oldBlob.slice(0, 2), oldBlob.slice(2))), "the old file is packed, not loose").toBe(false);

    await settle();
    const s = await store({ now: () => now + 15 * DAY });
    expect((await s.prune()).removed).toEqual([old!.checkpointId]);
    expect(packs()).toHaveLength(1);
    expect(await shadowGit(["cat-file", "-t", oldBlob]).catch((e: Error) => e.message)).toMatch(/could not get object info|Not a valid object name/);
    writeFiles(sb.project, many("v3"));
    await s.restore(young!.checkpointId, { sessionId: "s" });
    expect(manifest(sb.project)).toEqual(youngState);
  });

  it("leaves retention to the process holding its lock", async () => {
    const now = Date.now();
    const cp = await (await store({ now: () => now })).take({ sessionId: "s", kind: "prompt" });
    await settle();
    const { pruneLock } = await shadowLayout(sb.home, sb.project);
    writeFileSync(pruneLock, "");
    const s = await store({ now: () => now + 15 * DAY });
    expect(await s.prune()).toEqual({ removed: [], busy: true });
    expect((await s.list()).map((c) => c.checkpointId)).toEqual([cp!.checkpointId]);
  });

  it("drops session indexes not written since the cutoff", async () => {
    const now = Date.now();
    const s = await store({ now: () => now });
    await s.take({ sessionId: "idle-session", kind: "prompt" });
    const { indexDir } = await shadowLayout(sb.home, sb.project);
    expect(readdirSync(indexDir)).toEqual(["idle-session"]);
    await settle();
    const future = await store({ now: () => now + 15 * DAY });
    await future.prune();
    expect(readdirSync(indexDir)).toEqual([]);
    // The next checkpoint of that session starts from scratch and is complete.
    const cp = await future.take({ sessionId: "idle-session", kind: "prompt" });
    expect(cp!.files).toBe(2);
  });

  it("runs by itself after a store's first checkpoint when the last run is a day old", async () => {
    const now = Date.now();
    const s1 = await store({ now: () => now });
    const old = await s1.take({ sessionId: "s", kind: "prompt" });
    await s1.idle();
    const s2 = await store({ now: () => now + 15 * DAY });
    await s2.take({ sessionId: "s", kind: "prompt" });
    await s2.idle();
    expect((await s2.list()).map((c) => c.checkpointId)).not.toContain(old!.checkpointId);
  });
});

describe("a checkpoint whose objects are gone", () => {
  it("fails as pruned before anything changes", async () => {
    const s = await store();
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    writeFiles(sb.project, { "a.txt": "changed\n" });
    const blob = (await shadowGit(["rev-parse", `${cp!.tree}:dir/b.txt`])).trim();
    const { gitDir } = await shadowLayout(sb.home, sb.project);
    rmSync(join(gitDir, "objects", blob.slice(0, 2), blob.slice(2)));
    await expectNothingChanged(s, () => s.restore(cp!.checkpointId, { sessionId: "s" }), "pruned");
    await expectNothingChanged(s, () => s.diff(cp!.checkpointId), "pruned");
  });

  it("is still restored from the recorded commit when only its ref went", async () => {
    const s = await store();
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    const state = manifest(sb.project);
    writeFiles(sb.project, { "a.txt": "changed\n" });
    await shadowGit(["update-ref", "-d", `${REF_PREFIX}${cp!.checkpointId}`]);
    await expectNothingChanged(s, () => s.restore(cp!.checkpointId, { sessionId: "s" }), "unknown_checkpoint");
    await s.restore({ checkpointId: cp!.checkpointId, commit: cp!.commit }, { sessionId: "s" });
    expect(manifest(sb.project)).toEqual(state);
  });
});

describe("git and signals", () => {
  it("reports git missing as unavailable", async () => {
    const s = await store({ gitPath: join(sb.root, "no-such-git") });
    const err = await s.take({ sessionId: "s", kind: "prompt" }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CheckpointError);
    expect(err).toMatchObject({ reason: "unavailable", code: "unavailable" });
    expect((err as Error).message).toContain("git is not available at");
  });

  it("reports a folder it cannot use as unavailable", async () => {
    const s = await store({ cwd: join(sb.root, "missing") });
    await expect(s.take({ sessionId: "s", kind: "prompt" })).rejects.toMatchObject({ reason: "unavailable", message: expect.stringMatching(/^cannot keep checkpoints of .*missing in .*home: ENOENT/) });
  });

  it("fails an aborted take with reason aborted, and the next take is whole", async () => {
    const s = await store();
    const controller = new AbortController();
    controller.abort();
    await expect(s.take({ sessionId: "s", kind: "prompt", signal: controller.signal })).rejects.toMatchObject({ reason: "aborted" });
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    expect(cp!.files).toBe(2);
    expect(await s.list()).toHaveLength(1);
  });

  it("refuses bad options with a clear message", async () => {
    await expect(store({ retentionDays: 0 })).rejects.toMatchObject({
      reason: "invalid_option",
      code: "config",
      message: "checkpoint option retentionDays must be a positive number, got 0",
    });
  });
});
