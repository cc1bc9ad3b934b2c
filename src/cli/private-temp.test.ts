import { chmodSync, chownSync, existsSync, lstatSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sessionTempDir, userTempDir } from "./private-temp.js";

let base: string;
const warnings: string[] = [];
const warn = (m: string) => warnings.push(m);
const me = `pith-${process.getuid!()}`;

beforeEach(() => {
  base = mkdtempSync(path.join(tmpdir(), "pith-private-temp-"));
  warnings.length = 0;
});
afterEach(() => rmSync(base, { recursive: true, force: true }));

const mode = (p: string) => lstatSync(p).mode & 0o777;

describe("the user's private temp folder", () => {
  it("is made 0700 under the temp folder, and found again", () => {
    const dir = userTempDir(base, warn);
    expect(dir).toBe(path.join(base, me));
    expect(mode(dir)).toBe(0o700);
    expect(userTempDir(base, warn)).toBe(dir);
    expect(warnings).toEqual([]);
  });

  it("an own folder open to others is closed to 0700", () => {
    mkdirSync(path.join(base, me), { mode: 0o777 });
    chmodSync(path.join(base, me), 0o777);
    expect(mode(userTempDir(base, warn))).toBe(0o700);
  });

  it("a link or someone else's folder under that name is never used: a fresh private folder instead, with a warning", () => {
    const elsewhere = path.join(base, "elsewhere");
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, path.join(base, me));
    const fresh = userTempDir(base, warn);
    expect(fresh).not.toBe(path.join(base, me));
    expect(path.basename(fresh)).toMatch(new RegExp(`^${me}-`));
    expect(lstatSync(fresh).isDirectory()).toBe(true);
    expect(mode(fresh)).toBe(0o700);
    expect(warnings[0]).toMatch(/is not a private folder of this user; using .* for tool output files/);
    rmSync(path.join(base, me));
    if (process.getuid!() === 0) {
      mkdirSync(path.join(base, me), { mode: 0o700 });
      chownSync(path.join(base, me), 65534, 65534);
      expect(userTempDir(base, warn)).not.toBe(path.join(base, me));
    }
  });

  it("a session folder is 0700, and release removes it with its files", async () => {
    const s = await sessionTempDir(userTempDir(base, warn));
    expect(path.basename(s.dir)).toMatch(/^session-/);
    expect(mode(s.dir)).toBe(0o700);
    writeFileSync(path.join(s.dir, "spill.log"), "x", { mode: 0o600 });
    await s.release();
    expect(existsSync(s.dir)).toBe(false);
  });
});
