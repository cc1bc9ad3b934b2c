// Shared by the policy tests: a scratch project folder and home folder, a short decide(), and
// calls judged the way the real built-in tools declare themselves (their effect and paths).
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { createNodeExecOps, type NodeExecOptions } from "../../src/tools/ops/exec-ops.js";
import { createBuiltinTools, createReferenceTools, type Tool } from "../../src/tools/index.js";
import { decidePermission } from "../../src/policy/decide.js";
import type { PermissionCall, PermissionDecision, PermissionMode, PermissionRules } from "../../src/policy/types.js";

let declared: Map<string, Tool> | undefined;

/** The built-in and reference tools by name (`hashline_edit`: edit in hashline mode). */
function builtinTools(): Map<string, Tool> {
  if (!declared) {
    const vision = async () => ({ text: "", model: "none" });
    const tools = [...createBuiltinTools({ cwd: "/" }), ...createReferenceTools({ vision })];
    declared = new Map(tools.map((t) => [t.name, t]));
    const hashline = createBuiltinTools({ cwd: "/", editMode: "hashline" }).find((t) => t.name === "edit")!;
    declared.set("hashline_edit", hashline);
  }
  return declared;
}

/**
 * The call as the session's gate builds it: a built-in tool's name gets that tool's effect and
 * declared paths (`hashline_edit` is `edit` in hashline mode); any other name is a tool that
 * declares nothing (a host, extension or MCP tool not marked read-only).
 */
export function callOf(toolName: string, args: Record<string, unknown>): PermissionCall {
  const tool = builtinTools().get(toolName);
  if (!tool) return { toolName, arguments: args };
  const call: PermissionCall = { toolName: tool.name, arguments: args, effect: tool.effect };
  if (tool.paths) call.paths = tool.paths(args);
  return call;
}

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
      return decidePermission(callOf(toolName, args), rules, mode, scratch.cwd, { home: scratch.home });
    },
  };
}
