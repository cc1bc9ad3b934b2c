import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { physicalPath } from "./real-path.js";
import { makeScratch, type Scratch } from "../../test/support/policy.js";
import { assertWritable, checkWritePath, type WriteRoots } from "./write-guard.js";

let s: Scratch;
let roots: WriteRoots;
/** The absolute path the write/edit tools resolve `rel` to (lexically, like resolveToolPath). */
const abs = (rel: string) => resolve(s.cwd, rel);

beforeAll(() => {
  s = makeScratch();
  roots = { mode: "workspace-write", roots: [s.cwd] };
  mkdirSync(join(s.cwd, "src"));
  writeFileSync(join(s.cwd, "src", "app.ts"), "x");
  writeFileSync(join(s.outside, "target.txt"), "host file");
  symlinkSync(join(s.outside, "target.txt"), join(s.cwd, "file-link"));
  symlinkSync(s.outside, join(s.cwd, "dir-link"));
  symlinkSync(join(s.cwd, "src"), join(s.cwd, "src-link"));
  symlinkSync(join(s.outside, "not-yet.txt"), join(s.cwd, "dangling"));
  symlinkSync(join(s.cwd, "loop-b"), join(s.cwd, "loop-a"));
  symlinkSync(join(s.cwd, "loop-a"), join(s.cwd, "loop-b"));
});
afterAll(() => s.cleanup());

describe("the sandbox's write guard for the write/edit tools", () => {
  it("allows paths inside the roots, existing or not, and answers the physical path", async () => {
    expect(await checkWritePath(abs("src/app.ts"), roots)).toEqual({ ok: true, path: join(s.cwd, "src/app.ts") });
    expect(await checkWritePath(abs("new/deep/file.ts"), roots)).toEqual({ ok: true, path: join(s.cwd, "new/deep/file.ts") });
    expect(await checkWritePath(abs("src-link/new.ts"), roots)).toEqual({ ok: true, path: join(s.cwd, "src/new.ts") });
    expect(await checkWritePath(s.cwd, roots)).toMatchObject({ ok: true });
  });

  it("refuses `..` escapes", async () => {
    const v = await checkWritePath(abs("../outside/x.txt"), roots);
    expect(v).toEqual({
      ok: false,
      reason: `The sandbox (workspace-write) allows writing only inside ${s.cwd}: ${join(s.outside, "x.txt")} is outside, so it was not written.`,
    });
    expect(await checkWritePath(abs("src/../../home/x"), roots)).toMatchObject({ ok: false });
  });

  it("refuses a symlink pointing outside: a linked file, a linked folder, a new file under it, a dangling link", async () => {
    const link = await checkWritePath(abs("file-link"), roots);
    expect(link).toMatchObject({ ok: false });
    expect(!link.ok && link.reason).toContain(`(it leads to ${join(s.outside, "target.txt")} through a symbolic link)`);
    expect(await checkWritePath(abs("dir-link/target.txt"), roots)).toMatchObject({ ok: false });
    expect(await checkWritePath(abs("dir-link/new/file.txt"), roots)).toMatchObject({ ok: false });
    expect(await checkWritePath(abs("dangling"), roots)).toMatchObject({ ok: false });
    expect(await physicalPath(abs("dangling"))).toBe(join(s.outside, "not-yet.txt"));
  });

  it("refuses a symlink loop with the reason, and every write in read-only mode", async () => {
    const loop = await checkWritePath(abs("loop-a/x"), roots);
    expect(!loop.ok && loop.reason).toMatch(/could not resolve .*loop-a\/x \(ELOOP/);
    expect(await checkWritePath(abs("src/app.ts"), { mode: "read-only", roots: [] })).toEqual({
      ok: false,
      reason: `The sandbox (read-only) does not allow writing files: ${abs("src/app.ts")} was not written.`,
    });
  });

  it("extra writable roots count; a root's sibling with a common name prefix does not", async () => {
    const more: WriteRoots = { mode: "workspace-write", roots: [s.cwd, s.outside] };
    expect(await checkWritePath(abs("dir-link/target.txt"), more)).toEqual({ ok: true, path: join(s.outside, "target.txt") });
    expect(await checkWritePath(`${s.cwd}-sibling/x`, roots)).toMatchObject({ ok: false });
    await expect(assertWritable(`${s.cwd}-sibling/x`, roots)).rejects.toMatchObject({ code: "invalid_request" });
  });
});
