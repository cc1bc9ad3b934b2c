// What a checkpoint covers and what it leaves alone, the one-time give-up on huge folders, the
// patch cap, and odd session ids.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { shadowLayout } from "./shadow-repo.js";
import { unprocessablePath } from "./snapshot.js";
import type { CheckpointStore } from "./store.js";
import { makeSandbox, makeStore, manifest, projectGit, writeFiles, type Sandbox } from "../../test/support/checkpoints.js";

let sb: Sandbox;
let stores: CheckpointStore[];

beforeEach(() => {
  sb = makeSandbox();
  stores = [];
});

afterEach(async () => {
  for (const s of stores) await s.idle();
  sb.cleanup();
});

async function store(over: Parameters<typeof makeStore>[1] = {}): Promise<CheckpointStore> {
  const s = await makeStore(sb, over);
  stores.push(s);
  return s;
}

describe("what a checkpoint covers", () => {
  it("keeps node_modules out even when a .gitignore re-includes it", async () => {
    writeFiles(sb.project, { ".gitignore": "!node_modules\n!node_modules/**\n", "node_modules/x/i.js": "1\n", "src/node_modules/y.js": "2\n", "a.txt": "a\n" });
    const s = await store();
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    expect(cp!.files).toBe(2);
    writeFiles(sb.project, { "node_modules/x/i.js": "changed\n", "a.txt": "b\n" });
    expect((await s.diff(cp!.checkpointId)).files.map((f) => f.path)).toEqual(["a.txt"]);
  });

  it("skips a nested git repository, reports it, and a restore leaves it alone", async () => {
    writeFiles(sb.project, { "a.txt": "a\n", "vendor/lib/code.c": "int x;\n" });
    projectGit(join(sb.project, "vendor/lib"), ["init", "-q"]);
    const s = await store();
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    expect(cp!.skipped.nestedRepos).toEqual(["vendor/lib"]);
    expect(cp!.files).toBe(1);
    writeFiles(sb.project, { "vendor/lib/code.c": "int y;\n", "a.txt": "changed\n" });
    const before = manifest(sb.project);
    await s.restore(cp!.checkpointId, { sessionId: "s" });
    expect(manifest(sb.project)["vendor/lib/code.c"]).toBe(before["vendor/lib/code.c"]);
    expect(manifest(sb.project)["a.txt"]).not.toBe(before["a.txt"]);
  });

  it("keeps pith's home out when it lies inside the folder", async () => {
    writeFiles(sb.project, { "a.txt": "a\n", ".pith/sessions/x.jsonl": "{}\n" });
    const s = await store({ home: join(sb.project, ".pith") });
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    expect(cp!.files).toBe(1);
    writeFiles(sb.project, { ".pith/sessions/y.jsonl": "{}\n" });
    const second = await s.take({ sessionId: "s", kind: "prompt" });
    expect((await s.diff(cp!.checkpointId, second!.checkpointId)).files).toEqual([]);
  });

  it("checkpoints an empty folder, and restoring it removes everything covered", async () => {
    const s = await store();
    const empty = await s.take({ sessionId: "s", kind: "prompt" });
    expect(empty!.files).toBe(0);
    writeFiles(sb.project, { "a/b/c.txt": "c\n", "d.txt": "d\n" });
    const r = await s.restore(empty!.checkpointId, { sessionId: "s" });
    expect(r.deleted).toEqual(["a/b/c.txt", "d.txt"]);
    expect(readdirSync(sb.project)).toEqual([]);
  });

  it("reports a file whose name is not UTF-8 instead of failing", async () => {
    writeFiles(sb.project, { "a.txt": "a\n" });
    writeFileSync(Buffer.concat([Buffer.from(sb.project + "/bad-"), Buffer.from([0xff]), Buffer.from(".txt")]), "x\n");
    const s = await store();
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    expect(cp!.files).toBe(1);
    expect(cp!.skipped.unreadable).toEqual(["bad-\uFFFD.txt"]);
  });

  it("works from a symlinked path to the folder, and takes paths under either spelling", async () => {
    writeFiles(sb.project, { "a.txt": "a\n" });
    execFileSync("ln", ["-s", sb.project, join(sb.root, "alias")]);
    const s = await store({ cwd: join(sb.root, "alias") });
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    writeFiles(sb.project, { "a.txt": "b\n" });
    const r = await s.restore(cp!.checkpointId, { sessionId: "s", paths: [join(sb.root, "alias", "a.txt")] });
    expect(r.restored).toEqual(["a.txt"]);
  });
});

describe("limits", () => {
  it("gives up on a folder with more than maxFiles files, with one notice", async () => {
    writeFiles(sb.project, Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}.txt`, `${i}\n`])));
    const onNotice = vi.fn();
    const s = await store({ maxFiles: 10, onNotice });
    expect(s.status()).toEqual({ enabled: true });
    expect(await s.take({ sessionId: "s", kind: "prompt" })).toBeUndefined();
    expect(await s.take({ sessionId: "s", kind: "prompt" })).toBeUndefined();
    expect(onNotice).toHaveBeenCalledTimes(1);
    expect(onNotice.mock.calls[0][0]).toMatch(/^File checkpoints are off for this session: .* holds more than 10 files \(raise fileCheckpoints.maxFiles to cover it\)\.$/);
    const status = s.status();
    expect(status.enabled).toBe(false);
    await expect(s.diff("0123456789abcdef")).rejects.toMatchObject({ reason: "unknown_checkpoint" });
    expect(await s.list()).toEqual([]);
  });

  it("counts only what git would track", async () => {
    writeFiles(sb.project, { ".gitignore": "gen/\n", ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`gen/f${i}.txt`, "x"])) });
    const s = await store({ maxFiles: 10 });
    expect((await s.take({ sessionId: "s", kind: "prompt" }))!.files).toBe(1);
  });

  it("cuts the patch on a line boundary at maxPatchBytes", async () => {
    writeFiles(sb.project, { "a.txt": "" });
    const s = await store({ maxPatchBytes: 300 });
    const cp = await s.take({ sessionId: "s", kind: "prompt" });
    writeFiles(sb.project, { "a.txt": Array.from({ length: 200 }, (_, i) => `line ${i}\n`).join("") });
    const d = await s.diff(cp!.checkpointId);
    expect(d.truncated).toBe(true);
    expect(d.patch.length).toBeLessThanOrEqual(300);
    expect(d.patch.endsWith("\n")).toBe(true);
    expect(d.files).toEqual([{ path: "a.txt", status: "modified", additions: 200, deletions: 0 }]);
  });
});

describe("session ids", () => {
  it("uses a safe index file name for any id, and one index per session", async () => {
    writeFiles(sb.project, { "a.txt": "a\n" });
    const s = await store();
    await s.take({ sessionId: "../../escape", kind: "prompt" });
    await s.take({ sessionId: "plain-id_1", kind: "prompt" });
    const { indexDir } = await shadowLayout(sb.home, sb.project);
    const names = readdirSync(indexDir).sort();
    expect(names).toHaveLength(2);
    expect(names[0]).toMatch(/^h-[0-9a-f]{32}$/);
    expect(names[1]).toBe("plain-id_1");
    expect(existsSync(join(sb.home, "escape"))).toBe(false);
    expect((await s.list()).map((c) => c.sessionId)).toEqual(["../../escape", "plain-id_1"]);
  });
});

describe("unprocessablePath", () => {
  it("reads the path git could not index from its message", () => {
    expect(unprocessablePath("git update-index failed (exit 128): error: open(\"x y.txt\"): Permission denied\nfatal: Unable to process path x y.txt")).toBe("x y.txt");
    expect(unprocessablePath("fatal: something else")).toBeUndefined();
  });
});
