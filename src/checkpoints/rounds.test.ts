// Three rounds of changes, in a git repository and in a plain folder, on the real git: the diff
// reports exactly the changed files, each restore gives a byte-identical tree, every undo
// checkpoint brings the state before back, and the project's own .git never changes.
import { chmodSync, existsSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CheckpointStore } from "./store.js";
import {
  binaryBytes,
  makeProjectRepo,
  makeSandbox,
  makeStore,
  manifest,
  projectGitState,
  writeFiles,
  type Sandbox,
} from "../../test/support/checkpoints.js";
import type { Checkpoint, CheckpointDiff } from "./types.js";

const SESSION = "session-a";
const MAX_FILE_BYTES = 4096;

function initialState(project: string): void {
  writeFiles(project, {
    "README.md": "hello\n",
    "src/a.ts": "export const a = 1;\nexport const keep = true;\n",
    "src/b.ts": "export const b = 2;\n",
    "bin/tool.sh": "#!/bin/sh\necho tool\n",
    "data.bin": binaryBytes(1),
    "nested/deep/x.txt": "deep\n",
    "crlf.txt": "one\r\ntwo\r\n",
    ".gitattributes": "*.txt text eol=lf\n",
    ".gitignore": "*.log\nbuild/\n",
    "app.log": "ignored log\n",
    "build/out.js": "ignored build output\n",
    "big.dat": "x".repeat(MAX_FILE_BYTES + 1),
    "node_modules/pkg/index.js": "module.exports = 1;\n",
  });
}

function round1(p: string): void {
  writeFiles(p, { "src/new.ts": "export const n = 0;\n", "src/a.ts": "export const a = 2;\nexport const keep = true;\n", "data.bin": binaryBytes(2) });
  unlinkSync(join(p, "src/b.ts"));
  chmodSync(join(p, "bin/tool.sh"), 0o755);
  symlinkSync("src/a.ts", join(p, "link"));
}

function round2(p: string): void {
  writeFiles(p, { "gen/sub/y.txt": "generated\n", "crlf.txt": "one\r\nTWO\r\nthree\r\n" });
  unlinkSync(join(p, "nested/deep/x.txt")); // nested/deep stays behind, empty
  unlinkSync(join(p, "link"));
  symlinkSync("src/new.ts", join(p, "link"));
}

function round3(p: string): void {
  writeFiles(p, { "src/new.ts": "export const n = 1;\nexport const m = 2;\n", "image.png": binaryBytes(3, 512) });
  chmodSync(join(p, "bin/tool.sh"), 0o644);
  unlinkSync(join(p, "link"));
}

const summary = (d: CheckpointDiff) => d.files.map((f) => `${f.status} ${f.path}${f.binary ? " (binary)" : ""}`);

describe.each([
  ["a git repository", true],
  ["a plain folder", false],
])("checkpoints in %s", (_label, isRepo) => {
  let sb: Sandbox;
  let store: CheckpointStore;
  const states: Array<Record<string, string>> = [];
  const cps: Checkpoint[] = [];
  let gitBefore: ReturnType<typeof projectGitState> | undefined;

  beforeAll(async () => {
    sb = makeSandbox();
    initialState(sb.project);
    if (isRepo) {
      makeProjectRepo(sb.project);
      gitBefore = projectGitState(sb.project);
    }
    store = await makeStore(sb, { maxFileBytes: MAX_FILE_BYTES });
    for (const change of [round1, round2, round3]) {
      states.push(manifest(sb.project));
      const cp = await store.take({ sessionId: SESSION, kind: "prompt" });
      if (!cp) throw new Error("checkpoint not taken");
      cps.push(cp);
      change(sb.project);
    }
    states.push(manifest(sb.project));
  });

  afterAll(async () => {
    await store?.idle();
    sb?.cleanup();
  });

  it("takes a checkpoint per prompt, leaving out ignored, oversized and node_modules files", async () => {
    expect(cps.map((c) => c.kind)).toEqual(["prompt", "prompt", "prompt"]);
    expect(new Set(cps.map((c) => c.checkpointId)).size).toBe(3);
    expect(cps[0].skipped.oversized).toEqual(["big.dat"]);
    const listed = await store.list();
    expect(listed.map((c) => c.checkpointId)).toEqual(cps.map((c) => c.checkpointId));
    const files = Object.keys(states[0]).filter((p) => !["app.log", "build/out.js", "big.dat", "node_modules/pkg/index.js"].includes(p));
    expect(cps[0].files).toBe(files.length);
  });

  it("diffs consecutive checkpoints and the files now: exactly the changed files", async () => {
    expect(summary(await store.diff(cps[0].checkpointId, cps[1].checkpointId))).toEqual([
      "modified bin/tool.sh",
      "modified data.bin (binary)",
      "added link",
      "modified src/a.ts",
      "deleted src/b.ts",
      "added src/new.ts",
    ]);
    expect(summary(await store.diff(cps[1].checkpointId, cps[2].checkpointId))).toEqual([
      "modified crlf.txt",
      "added gen/sub/y.txt",
      "modified link",
      "deleted nested/deep/x.txt",
    ]);
    const now = await store.diff(cps[2].checkpointId, undefined, { sessionId: SESSION });
    expect(summary(now)).toEqual(["modified bin/tool.sh", "added image.png (binary)", "deleted link", "modified src/new.ts"]);
  });

  it("counts lines and writes a unified patch (mode changes, binary files named only, exact bytes)", async () => {
    const d = await store.diff(cps[0].checkpointId, cps[1].checkpointId);
    const byPath = Object.fromEntries(d.files.map((f) => [f.path, f]));
    expect(byPath["src/a.ts"]).toMatchObject({ additions: 1, deletions: 1 });
    expect(byPath["bin/tool.sh"]).toMatchObject({ additions: 0, deletions: 0 });
    expect(byPath["src/b.ts"]).toMatchObject({ additions: 0, deletions: 1 });
    expect(d.truncated).toBe(false);
    expect(d.patch).toContain("diff --git a/bin/tool.sh b/bin/tool.sh\nold mode 100644\nnew mode 100755\n");
    expect(d.patch).toContain("Binary files a/data.bin and b/data.bin differ");
    expect(d.patch).toContain("-export const a = 1;\n+export const a = 2;\n");
    expect(d.patch).toContain("+src/a.ts\n\\ No newline at end of file");
    const crlf = await store.diff(cps[1].checkpointId, cps[2].checkpointId);
    expect(crlf.patch).toContain("-two\r\n+TWO\r\n+three\r\n");
  });

  it("restores each checkpoint byte for byte, and each undo checkpoint brings the latest state back", async () => {
    const latest = states[3];
    for (let i = 0; i < 3; i++) {
      const result = await store.restore(cps[i].checkpointId, { sessionId: SESSION });
      expect(manifest(sb.project), `after restoring checkpoint ${i + 1}`).toEqual(states[i]);
      expect(result.failed).toEqual([]);
      expect(result.undoCheckpoint.kind).toBe("restore");
      await store.restore(result.undoCheckpointId, { sessionId: SESSION });
      expect(manifest(sb.project), `after undoing restore ${i + 1}`).toEqual(latest);
    }
  });

  it("reports what a restore wrote and deleted, and removes folders it leaves empty", async () => {
    const result = await store.restore(cps[0].checkpointId, { sessionId: SESSION });
    // bin/tool.sh went +x and back: the same at both ends, so not written.
    expect(result.restored).toEqual(["crlf.txt", "data.bin", "nested/deep/x.txt", "src/a.ts", "src/b.ts"]);
    expect(result.deleted).toEqual(["gen/sub/y.txt", "image.png", "src/new.ts"]);
    expect(result.skipped).toEqual([]);
    expect(existsSync(join(sb.project, "gen"))).toBe(false);
    const undo = await store.restore(result.undoCheckpointId, { sessionId: SESSION });
    expect(undo.deleted).toEqual(["nested/deep/x.txt", "src/b.ts"]);
    // nested/deep held only x.txt at the undo checkpoint's side: it goes too.
    expect(existsSync(join(sb.project, "nested"))).toBe(false);
    expect(existsSync(join(sb.project, "gen/sub/y.txt"))).toBe(true);
  });

  it("restores only the given paths", async () => {
    const before = manifest(sb.project);
    const result = await store.restore(cps[0].checkpointId, { sessionId: SESSION, paths: ["src", join(sb.project, "data.bin")] });
    expect(result.restored).toEqual(["data.bin", "src/a.ts", "src/b.ts"]);
    expect(result.deleted).toEqual(["src/new.ts"]);
    const after = manifest(sb.project);
    expect(after["src/a.ts"]).toBe(states[0]["src/a.ts"]);
    expect(after["data.bin"]).toBe(states[0]["data.bin"]);
    expect(after["crlf.txt"]).toBe(before["crlf.txt"]);
    expect(after["image.png"]).toBe(before["image.png"]);
    await store.restore(result.undoCheckpointId, { sessionId: SESSION });
    expect(manifest(sb.project)).toEqual(before);
  });

  it("leaves ignored, oversized and node_modules files alone, even when they changed", async () => {
    writeFiles(sb.project, { "app.log": "changed log\n", "big.dat": "y".repeat(MAX_FILE_BYTES + 10), "node_modules/pkg/index.js": "changed\n" });
    writeFiles(sb.project, { "src/a.ts": "z".repeat(MAX_FILE_BYTES + 1) }); // covered at checkpoint 1, oversized now
    const before = manifest(sb.project);
    const result = await store.restore(cps[0].checkpointId, { sessionId: SESSION });
    const after = manifest(sb.project);
    for (const path of ["app.log", "big.dat", "node_modules/pkg/index.js", "build/out.js", "src/a.ts"]) expect(after[path], path).toBe(before[path]);
    expect(result.skipped.map((s) => s.path)).toEqual(["src/a.ts"]);
    expect(result.undoCheckpoint.skipped.oversized.sort()).toEqual(["big.dat", "src/a.ts"]);
    await store.restore(result.undoCheckpointId, { sessionId: SESSION });
    expect(manifest(sb.project)).toEqual(before);
  });

  it("refuses a path outside the folder before changing anything", async () => {
    const before = manifest(sb.project);
    const count = (await store.list()).length;
    await expect(store.restore(cps[0].checkpointId, { sessionId: SESSION, paths: ["../elsewhere"] })).rejects.toMatchObject({ reason: "invalid_path" });
    await expect(store.restore(cps[0].checkpointId, { sessionId: SESSION, paths: [] })).rejects.toMatchObject({ reason: "invalid_path" });
    expect(manifest(sb.project)).toEqual(before);
    expect((await store.list()).length).toBe(count);
  });

  it("covers a file replaced by a folder and back", async () => {
    rmSync(join(sb.project, "README.md"));
    writeFiles(sb.project, { "README.md/inner.md": "now a folder\n" });
    const atCheckpoint = manifest(sb.project);
    const cp = await store.take({ sessionId: SESSION, kind: "prompt" });
    rmSync(join(sb.project, "README.md"), { recursive: true });
    writeFileSync(join(sb.project, "README.md"), "a file again\n");
    const latest = manifest(sb.project);
    const r = await store.restore(cp!.checkpointId, { sessionId: SESSION });
    expect(manifest(sb.project)).toEqual(atCheckpoint);
    expect(r.deleted).toEqual(["README.md"]);
    expect(r.restored).toEqual(["README.md/inner.md"]);
    await store.restore(r.undoCheckpointId, { sessionId: SESSION });
    expect(manifest(sb.project)).toEqual(latest);
  });

  it.runIf(isRepo)("never touches the project's .git (index, HEAD, refs, stash, config)", () => {
    expect(projectGitState(sb.project)).toEqual(gitBefore);
  });
});
