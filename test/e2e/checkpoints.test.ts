// File checkpoints end to end: the built CLI with --file-checkpoints, a scripted model
// changing files with write, edit and bash over three prompts, in a git repository and in a plain
// folder. Every restore is checked by hashing every file of the tree; the project's .git is
// hashed before and after; ignored and oversized files must stay as they are.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Pith, fakeModelsJson, tempDir, trackPiths, useFakeLlm, type Frame } from "./harness.js";

const llm = useFakeLlm();
const open = trackPiths();
const MODEL = ["--provider", "fake-openai", "--model", "fake-gpt"];
const MAX_FILE_BYTES = 4096;

/** Every entry under `root` (but `skip`): files by hash and executable bit, symlinks by target, folders. */
function manifest(root: string, skip: string[] = [".git"]): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip.includes(r)) continue;
      const abs = path.join(dir, name);
      const st = lstatSync(abs);
      if (st.isSymbolicLink()) out[r] = `link:${readlinkSync(abs)}`;
      else if (st.isDirectory()) {
        out[r] = "dir";
        walk(abs, r);
      } else out[r] = `${st.mode & 0o111 ? "x" : "-"}:${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
    }
  };
  walk(root, "");
  return out;
}

function without(m: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(m).filter(([k]) => !keys.includes(k)));
}

function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], { cwd, encoding: "utf8" });
}

function homeWithSettings(settings: unknown): string {
  const home = tempDir("pith-cp-home-");
  writeFileSync(path.join(home, "settings.json"), JSON.stringify(settings));
  return home;
}

async function start(opts: { cwd: string; pithHome: string; args?: string[]; env?: Record<string, string> }): Promise<Pith> {
  const p = await Pith.start({ cwd: opts.cwd, pithHome: opts.pithHome, modelsJson: fakeModelsJson(llm.url), args: [...MODEL, "--file-checkpoints", ...(opts.args ?? [])], env: opts.env });
  open.push(p);
  return p;
}

async function ok(p: Pith, cmd: Frame, timeoutMs = 60_000): Promise<any> {
  const res = await p.request(cmd, timeoutMs);
  if (!res.success) throw new Error(`${cmd.type} failed: ${res.error}`);
  return res.data;
}

const UNTOUCHED = ["build.log", "big.bin"];

/** The starting project: ignored and oversized files, a file to modify, one to delete, a script to chmod. */
function seedProject(cwd: string): void {
  writeFileSync(path.join(cwd, ".gitignore"), "*.log\n");
  writeFileSync(path.join(cwd, "build.log"), "ignored\n");
  writeFileSync(path.join(cwd, "big.bin"), Buffer.alloc(MAX_FILE_BYTES + 1, 7));
  writeFileSync(path.join(cwd, "keep.txt"), "keep\n");
  writeFileSync(path.join(cwd, "mod.txt"), "v1\n");
  writeFileSync(path.join(cwd, "del.txt"), "delete me\n");
  writeFileSync(path.join(cwd, "script.sh"), "#!/bin/sh\necho hi\n");
}

async function threePrompts(p: Pith): Promise<Array<Record<string, string>>> {
  const states = [manifest(p.cwd)];
  llm.enqueue(
    { toolCalls: [{ id: "w1", name: "write", arguments: { path: "new.txt", content: "hello\n" } }, { id: "e1", name: "edit", arguments: { path: "mod.txt", oldText: "v1", newText: "v2" } }] },
    { text: "one done" },
  );
  await p.promptAndWait("prompt one", {}, 60_000);
  states.push(manifest(p.cwd));
  const bash = "chmod +x script.sh && ln -s new.txt link.txt && printf '\\000\\001\\002\\377' > bin.dat && rm del.txt && echo more >> build.log && echo more >> big.bin";
  llm.enqueue({ toolCalls: [{ id: "b2", name: "bash", arguments: { command: bash } }] }, { text: "two done" });
  await p.promptAndWait("prompt two", {}, 60_000);
  states.push(manifest(p.cwd));
  llm.enqueue(
    { toolCalls: [{ id: "w3", name: "write", arguments: { path: "sub/deep/file.txt", content: "deep\n" } }, { id: "b3", name: "bash", arguments: { command: "rm new.txt && printf 'v3\\n' > mod.txt" } }] },
    { text: "three done" },
  );
  await p.promptAndWait("prompt three", {}, 60_000);
  states.push(manifest(p.cwd));
  return states;
}

const fileSet = (diff: any) => diff.files.map((f: any) => `${f.status} ${f.path}`).sort();

async function scenario(kind: "git" | "plain"): Promise<void> {
  const cwd = tempDir(`pith-cp-${kind}-`);
  seedProject(cwd);
  if (kind === "git") {
    git(cwd, "init", "-q");
    git(cwd, "add", ".gitignore", "keep.txt", "mod.txt", "del.txt", "script.sh");
    git(cwd, "commit", "-qm", "base");
    writeFileSync(path.join(cwd, "keep.txt"), "stashed change\n");
    git(cwd, "stash", "-q");
  }
  const dotGit = kind === "git" ? manifest(path.join(cwd, ".git"), []) : undefined;
  const stashList = kind === "git" ? git(cwd, "stash", "list") : undefined;
  const home = homeWithSettings({ fileCheckpoints: { maxFileBytes: MAX_FILE_BYTES } });
  const p = await start({ cwd, pithHome: home });
  const state = await ok(p, { type: "get_state" });
  expect(state.fileCheckpoints).toEqual({ enabled: true });

  const [m0, m1, m2, m3] = await threePrompts(p);
  const created = p.events("checkpoint_created");
  const { checkpoints } = await ok(p, { type: "get_checkpoints" });
  expect(checkpoints.map((c: any) => [c.kind, c.prompt])).toEqual([
    ["prompt", "prompt one"],
    ["prompt", "prompt two"],
    ["prompt", "prompt three"],
  ]);
  expect(created.map((e) => [e.checkpointId, e.entryId])).toEqual(checkpoints.map((c: any) => [c.checkpointId, c.entryId]));
  const users = (await ok(p, { type: "get_branch_messages" })).messages;
  expect(checkpoints.map((c: any) => c.entryId)).toEqual(users.map((u: any) => u.entryId));
  const [c1, c2, c3] = checkpoints.map((c: any) => c.checkpointId as string);

  // diffs name exactly the files each prompt changed
  expect(fileSet(await ok(p, { type: "diff_checkpoint", checkpointId: c1, toCheckpointId: c2 }))).toEqual(["added new.txt", "modified mod.txt"]);
  const d23 = await ok(p, { type: "diff_checkpoint", checkpointId: c2, toCheckpointId: c3 });
  expect(fileSet(d23)).toEqual(["added bin.dat", "added link.txt", "deleted del.txt", "modified script.sh"]);
  expect(d23.files.find((f: any) => f.path === "bin.dat").binary).toBe(true);
  const d3now = await ok(p, { type: "diff_checkpoint", checkpointId: c3 });
  expect(fileSet(d3now)).toEqual(["added sub/deep/file.txt", "deleted new.txt", "modified mod.txt"]);
  expect(d3now.patch).toContain("+v3");
  expect(d3now.truncated).toBe(false);

  // every restore gives the tree of its checkpoint, byte for byte; ignored and oversized files stay
  const untouched = () => Object.fromEntries(UNTOUCHED.map((k) => [k, manifest(cwd)[k]]));
  const now = untouched();
  const r1 = await ok(p, { type: "restore_checkpoint", checkpointId: c1 });
  expect(without(manifest(cwd), UNTOUCHED)).toEqual(without(m0, UNTOUCHED));
  expect(untouched()).toEqual(now);
  expect(r1.restored.sort()).toEqual(["del.txt", "mod.txt", "script.sh"]);
  expect(r1.deleted.sort()).toEqual(["bin.dat", "link.txt", "sub/deep/file.txt"]);
  expect(existsSync(path.join(cwd, "sub"))).toBe(false);
  await ok(p, { type: "restore_checkpoint", checkpointId: c2 });
  expect(without(manifest(cwd), UNTOUCHED)).toEqual(without(m1, UNTOUCHED));
  await ok(p, { type: "restore_checkpoint", checkpointId: c3 });
  expect(without(manifest(cwd), UNTOUCHED)).toEqual(without(m2, UNTOUCHED));
  // the first restore's undo checkpoint brings the latest state back
  await ok(p, { type: "restore_checkpoint", checkpointId: r1.undoCheckpointId });
  expect(manifest(cwd)).toEqual(m3);
  expect(untouched()).toEqual(now);
  const kinds = (await ok(p, { type: "get_checkpoints" })).checkpoints.map((c: any) => c.kind);
  expect(kinds).toEqual(["prompt", "prompt", "prompt", "restore", "restore", "restore", "restore"]);

  // only some paths
  await ok(p, { type: "restore_checkpoint", checkpointId: c1, paths: ["mod.txt"] });
  expect(readFileSync(path.join(cwd, "mod.txt"), "utf8")).toBe("v1\n");
  expect(existsSync(path.join(cwd, "sub/deep/file.txt"))).toBe(true);

  // both: files as before prompt two, and the conversation just before it
  await ok(p, { type: "restore_checkpoint", checkpointId: c2, mode: "both" });
  expect(without(manifest(cwd), UNTOUCHED)).toEqual(without(m1, UNTOUCHED));
  const texts = JSON.stringify((await ok(p, { type: "get_messages" })).messages);
  expect(texts).toContain("prompt one");
  expect(texts).not.toContain("prompt two");
  llm.enqueue({ text: "four done" });
  const before = llm.requests.length;
  await p.promptAndWait("prompt four", {}, 60_000);
  const sent = JSON.stringify(llm.requests.slice(before).find((r) => r.method === "POST")!.body.messages);
  expect(sent).toContain("prompt one");
  expect(sent).toContain("one done");
  expect(sent).not.toContain("prompt two");
  expect(sent).toContain("prompt four");
  expect(p.stderr).not.toMatch(/checkpoint failed/i);
  expect(await p.close()).toBe(0);

  if (dotGit) {
    expect(manifest(path.join(cwd, ".git"), [])).toEqual(dotGit);
    expect(git(cwd, "stash", "list")).toBe(stashList);
  }
}

describe("file checkpoints end to end", () => {
  it("in a git repository: three prompts of write/edit/bash, diffs, byte-identical restores, undo, both; .git untouched", async () => {
    await scenario("git");
  }, 240_000);

  it("in a plain folder: the same", async () => {
    await scenario("plain");
  }, 240_000);

  it("a checkpoint taken before a restart is restored after --continue", async () => {
    const cwd = tempDir("pith-cp-restart-");
    const home = tempDir("pith-cp-home-");
    writeFileSync(path.join(cwd, "a.txt"), "original\n");
    const first = await start({ cwd, pithHome: home });
    llm.enqueue({ toolCalls: [{ id: "w", name: "write", arguments: { path: "a.txt", content: "changed\n" } }] }, { text: "done" });
    await first.promptAndWait("change a", {}, 60_000);
    const [cp] = (await ok(first, { type: "get_checkpoints" })).checkpoints;
    expect(await first.close()).toBe(0);

    const second = await start({ cwd, pithHome: home, args: ["--continue"] });
    expect((await ok(second, { type: "get_checkpoints" })).checkpoints).toEqual([cp]);
    const restored = await ok(second, { type: "restore_checkpoint", checkpointId: cp.checkpointId });
    expect(restored.restored).toEqual(["a.txt"]);
    expect(readFileSync(path.join(cwd, "a.txt"), "utf8")).toBe("original\n");
    // switch_session away and back keeps them too
    const file = (await ok(second, { type: "get_state" })).sessionFile;
    await ok(second, { type: "new_session" });
    expect((await ok(second, { type: "get_checkpoints" })).checkpoints).toEqual([]);
    await ok(second, { type: "switch_session", sessionPath: file });
    expect((await ok(second, { type: "get_checkpoints" })).checkpoints.map((c: any) => c.checkpointId)).toContain(cp.checkpointId);
  }, 120_000);

  it("a checkpoint whose files are gone (another PITH_HOME, as after pruning) fails clearly and changes nothing", async () => {
    const cwd = tempDir("pith-cp-pruned-");
    const sessions = tempDir("pith-cp-sessions-");
    writeFileSync(path.join(cwd, "a.txt"), "original\n");
    const first = await start({ cwd, pithHome: tempDir("pith-cp-home-"), args: ["--session-dir", sessions] });
    llm.enqueue({ toolCalls: [{ id: "w", name: "write", arguments: { path: "a.txt", content: "changed\n" } }] }, { text: "done" });
    await first.promptAndWait("change a", {}, 60_000);
    const [cp] = (await ok(first, { type: "get_checkpoints" })).checkpoints;
    expect(await first.close()).toBe(0);
    const second = await start({ cwd, pithHome: tempDir("pith-cp-home-"), args: ["--session-dir", sessions, "--continue"] });
    const before = manifest(cwd);
    for (const cmd of [{ type: "restore_checkpoint", checkpointId: cp.checkpointId, mode: "both" }, { type: "diff_checkpoint", checkpointId: cp.checkpointId }]) {
      const res = await second.request(cmd, 60_000);
      expect(res).toMatchObject({ success: false, error: `Checkpoint ${cp.checkpointId} is no longer available: its files were pruned` });
    }
    expect(manifest(cwd)).toEqual(before);
    expect(JSON.stringify((await ok(second, { type: "get_messages" })).messages)).toContain("change a");
  }, 120_000);

  it("two sessions in one folder take checkpoints at the same time without errors", async () => {
    const cwd = tempDir("pith-cp-two-");
    const home = tempDir("pith-cp-home-");
    mkdirSync(path.join(cwd, "src"));
    for (let i = 0; i < 200; i++) writeFileSync(path.join(cwd, "src", `f${i}.txt`), `file ${i}\n`);
    const [a, b] = await Promise.all([start({ cwd, pithHome: home }), start({ cwd, pithHome: home })]);
    llm.enqueue({ text: "same", delayMs: 300 }, { text: "same", delayMs: 300 });
    await Promise.all([a.promptAndWait("from a", {}, 60_000), b.promptAndWait("from b", {}, 60_000)]);
    for (const p of [a, b]) {
      const { checkpoints } = await ok(p, { type: "get_checkpoints" });
      expect(checkpoints).toHaveLength(1);
      expect((await ok(p, { type: "diff_checkpoint", checkpointId: checkpoints[0].checkpointId })).files).toEqual([]);
      expect(p.stderr).not.toMatch(/checkpoint/i);
    }
  }, 120_000);

  it("a restore during a run fails clearly; an unknown id fails clearly; nothing changes", async () => {
    const cwd = tempDir("pith-cp-busy-");
    writeFileSync(path.join(cwd, "a.txt"), "a\n");
    const p = await start({ cwd, pithHome: tempDir("pith-cp-home-") });
    llm.enqueue({ hang: true });
    await ok(p, { type: "prompt", message: "hang" });
    const created = await p.waitFor((f) => f.type === "checkpoint_created", 60_000);
    const busy = await p.request({ type: "restore_checkpoint", checkpointId: created.checkpointId });
    expect(busy).toMatchObject({ success: false, error: "Cannot restore a checkpoint while a run is active: abort it first" });
    await ok(p, { type: "abort" });
    const unknown = await p.request({ type: "restore_checkpoint", checkpointId: "0123456789abcdef" });
    expect(unknown.success).toBe(false);
    expect(unknown.error).toMatch(/^Unknown checkpoint: 0123456789abcdef/);
    const badDiff = await p.request({ type: "diff_checkpoint", checkpointId: "nope" });
    expect(badDiff.error).toMatch(/^Unknown checkpoint: nope/);
    const badMode = await p.request({ type: "restore_checkpoint", checkpointId: created.checkpointId, mode: "everything" });
    expect(badMode.error).toBe('Invalid "mode": expected one of "files", "conversation", "both"');
    const outside = await p.request({ type: "restore_checkpoint", checkpointId: created.checkpointId, paths: ["../x"] });
    expect(outside.error).toMatch(/outside the working folder/);
    expect(readFileSync(path.join(cwd, "a.txt"), "utf8")).toBe("a\n");
    expect((await ok(p, { type: "get_checkpoints" })).checkpoints).toHaveLength(1);
  }, 120_000);

  it("with git off the PATH the feature is reported off and prompts still work", async () => {
    const cwd = tempDir("pith-cp-nogit-");
    const bin = tempDir("pith-cp-bin-");
    symlinkSync("/bin/sh", path.join(bin, "sh"));
    const p = await start({ cwd, pithHome: tempDir("pith-cp-home-"), env: { PATH: bin } });
    expect((await ok(p, { type: "get_state" })).fileCheckpoints).toEqual({ enabled: false, reason: "git was not found on PATH" });
    llm.enqueue({ toolCalls: [{ id: "w", name: "write", arguments: { path: "a.txt", content: "x" } }] }, { text: "done" });
    const frames = await p.promptAndWait("write a", {}, 60_000);
    expect(frames.filter((f) => f.type === "checkpoint_created")).toEqual([]);
    expect(readFileSync(path.join(cwd, "a.txt"), "utf8")).toBe("x");
    expect((await ok(p, { type: "get_checkpoints" })).checkpoints).toEqual([]);
    const diff = await p.request({ type: "diff_checkpoint", checkpointId: "0123456789abcdef" });
    expect(diff.error).toBe("File checkpoints are off: git was not found on PATH");
    expect(existsSync(path.join(p.pithHome, "checkpoints"))).toBe(false);
  }, 120_000);
});
