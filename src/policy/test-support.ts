// Shared by the policy tests: a scratch project folder and home folder, and a short decide().
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createNodeExecOps, type NodeExecOptions } from "../tools/ops/exec-ops.js";
import { decidePermission } from "./decide.js";
import type { PermissionDecision, PermissionMode, PermissionRules } from "./types.js";

export interface Scratch {
  /** The project (the session cwd), physical path. */
  cwd: string;
  /** A stand-in home folder. */
  home: string;
  /** Beside both: outside the cwd and the home. */
  outside: string;
  cleanup(): void;
}

export function makeScratch(): Scratch {
  const base = realpathSync(mkdtempSync(join(tmpdir(), "pith-policy-")));
  const cwd = join(base, "project");
  const home = join(base, "home");
  const outside = join(base, "outside");
  for (const d of [cwd, home, outside]) mkdirSync(d);
  return { cwd, home, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Runs `command` in `cwd` through `wrap` (a sandbox) the way the bash tool does; answers the exit code and merged output. */
export async function runWrapped(wrap: NodeExecOptions["wrapCommand"], cwd: string, command: string): Promise<{ code: number | null; out: string }> {
  let out = "";
  const res = await createNodeExecOps({ wrapCommand: wrap }).exec(command, { cwd, timeoutMs: 20_000, onData: (c) => (out += c.toString()) });
  return { code: res.exitCode, out };
}

export type Decide = (toolName: string, args: Record<string, unknown>, rules?: PermissionRules, mode?: PermissionMode) => Promise<PermissionDecision>;

/**
 * A scratch folder for the tests of one file (made before them, removed after them, `setup`
 * adds fixtures) and `decide`, decidePermission with that folder as cwd and home.
 */
export function useScratch(setup?: (s: Scratch) => void): { readonly s: Scratch; decide: Decide } {
  let scratch: Scratch | undefined;
  beforeAll(() => {
    scratch = makeScratch();
    setup?.(scratch);
  });
  afterAll(() => scratch?.cleanup());
  return {
    get s() {
      if (!scratch) throw new Error("useScratch: the scratch folder exists only while the tests run");
      return scratch;
    },
    decide: (toolName, args, rules = {}, mode = "allow") => {
      if (!scratch) throw new Error("useScratch: the scratch folder exists only while the tests run");
      return decidePermission({ toolName, arguments: args }, rules, mode, scratch.cwd, { home: scratch.home });
    },
  };
}
