// The availability probe: found, missing, too old, not git at all.
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { probeGit } from "./probe.js";
import { makeSandbox, type Sandbox } from "../../test/support/checkpoints.js";

let sb: Sandbox;

beforeEach(() => {
  sb = makeSandbox("pith-cp-probe-");
});

afterEach(() => sb.cleanup());

/** A folder holding an executable `git` that prints `output`. */
function fakeGit(name: string, output: string): string {
  const dir = join(sb.root, name);
  mkdirSync(dir);
  writeFileSync(join(dir, "git"), `#!/bin/sh\necho '${output}'\n`);
  chmodSync(join(dir, "git"), 0o755);
  return dir;
}

describe("probeGit", () => {
  it("finds the real git and reads its version", async () => {
    const probe = await probeGit({ pathEnv: process.env.PATH });
    expect(probe).toMatchObject({ available: true });
    if (probe.available) {
      expect(probe.gitPath).toMatch(/\/git$/);
      expect(probe.version).toMatch(/^\d+\.\d+/);
    }
  });

  it("reports git off the PATH", async () => {
    expect(await probeGit({ pathEnv: join(sb.root, "empty") })).toEqual({ available: false, reason: "git was not found on PATH" });
    expect(await probeGit({ pathEnv: undefined })).toEqual({ available: false, reason: "git was not found on PATH" });
    expect(await probeGit({ pathEnv: "relative/bin" })).toEqual({ available: false, reason: "git was not found on PATH" });
  });

  it("skips a non-executable git and takes the next one on the PATH", async () => {
    const broken = join(sb.root, "broken");
    mkdirSync(broken);
    writeFileSync(join(broken, "git"), "not executable");
    const good = fakeGit("good", "git version 2.45.1");
    expect(await probeGit({ pathEnv: `${broken}:${good}` })).toEqual({ available: true, gitPath: join(good, "git"), version: "2.45.1" });
  });

  it("refuses a git older than 2.20, and a program that is not git", async () => {
    expect(await probeGit({ pathEnv: fakeGit("old", "git version 2.17.1") })).toEqual({
      available: false,
      reason: "git 2.17 is too old (checkpoints need 2.20 or later)",
    });
    const other = fakeGit("other", "hello");
    expect(await probeGit({ pathEnv: other })).toEqual({ available: false, reason: `${join(other, "git")} --version printed "hello", not a git version` });
  });
});
