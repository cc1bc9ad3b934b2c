import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { confinedFs } from "./confined-fs.js";

let base: string;
let root: string;
let outside: string;
const refuse = (real: string, shown: string) => (real === root || real.startsWith(`${root}/`) ? undefined : `outside: ${shown} → ${real}`);

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), "pith-confined-")));
  root = join(base, "root");
  outside = join(base, "outside");
  mkdirSync(root);
  mkdirSync(outside);
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

describe("confined file operations", () => {
  it("write, create folders, rename and delete inside the root", async () => {
    const fs = confinedFs(refuse);
    await fs.mkdir(join(root, "a/b/c"));
    await fs.writeFile(join(root, "a/b/c/f.txt"), "one");
    await fs.rename(join(root, "a/b/c/f.txt"), join(root, "a/g.txt"));
    expect(readFileSync(join(root, "a/g.txt"), "utf8")).toBe("one");
    await fs.unlink(join(root, "a/g.txt"));
    await fs.rmdir(join(root, "a/b/c"));
    expect(existsSync(join(root, "a/b/c"))).toBe(false);
  });

  it("follows links that stay inside, refuses links that lead out (a folder, the file itself, a dangling link)", async () => {
    const fs = confinedFs(refuse);
    mkdirSync(join(root, "real"));
    symlinkSync(join(root, "real"), join(root, "alias"));
    writeFileSync(join(root, "real/target.txt"), "old");
    symlinkSync("target.txt", join(root, "real/link.txt"));
    await fs.writeFile(join(root, "alias/link.txt"), "new");
    expect(readFileSync(join(root, "real/target.txt"), "utf8")).toBe("new");
    symlinkSync(outside, join(root, "out"));
    await expect(fs.writeFile(join(root, "out/x.txt"), "x")).rejects.toThrow(/outside/);
    await expect(fs.mkdir(join(root, "out/new/deeper"))).rejects.toThrow(/outside/);
    symlinkSync(join(outside, "made.txt"), join(root, "dangling.txt"));
    await expect(fs.writeFile(join(root, "dangling.txt"), "x")).rejects.toThrow(/outside/);
    await expect(fs.rename(join(root, "real/target.txt"), join(root, "out/t.txt"))).rejects.toThrow(/outside/);
    expect(readdirSync(outside)).toEqual([]);
  });

  it("a folder swapped for a link to the outside in a tight loop never lets a write out", async () => {
    const fs = confinedFs(refuse);
    const dir = join(root, "d");
    mkdirSync(dir);
    const swapper = spawn("bash", ["-c", `cd ${JSON.stringify(root)}; while true; do mv d d.real 2>/dev/null; ln -sfn ${JSON.stringify(outside)} d; rm -f d; mv d.real d 2>/dev/null; done`], { stdio: "ignore", detached: true });
    let written = 0;
    let refused = 0;
    try {
      for (let i = 0; i < 2000; i++) {
        try {
          await fs.writeFile(join(dir, `f${i}.txt`), "x");
          written++;
        } catch {
          refused++;
        }
      }
    } finally {
      await killGroup(swapper.pid as number);
    }
    expect(readdirSync(outside)).toEqual([]);
    expect(written + refused).toBe(2000);
    expect(written).toBeGreaterThan(0);
  });
});

/**
 * Kills a process group and waits until none of it is left: a `mv` the loop started can
 * outlive its shell for a moment and would race the cleanup of the folder.
 */
async function killGroup(pgid: number): Promise<void> {
  const alive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false; // ESRCH: the group is gone
    }
  };
  process.kill(-pgid, "SIGKILL");
  while (alive()) await new Promise((r) => setTimeout(r, 5));
}
