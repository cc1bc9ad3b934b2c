// One session's sandbox: its private /tmp (a folder pith creates and binds there, shared by the
// session's commands, never the host's /tmp), its resolved writable roots and the paths kept
// read-only inside them (protection-plan.ts, re-read at every start of a sandboxed process), the
// wrapper for child processes and the guard for the built-in file-writing tools.
//
// Wiring: after `probeSandbox` succeeded, per session:
//   const sandbox = await prepareSandbox(settings, { cwd, tmpBase });
//   createNodeExecOps({ wrapCommand: sandbox.wrap })             // bash tool and the user `bash` command
//   createBuiltinTools({ ..., guardWrite: sandbox.guardWrite,     // edit/write enforce the same roots,
//     confineWrites: sandbox.refuseWrite })                       // every write through verified folder handles
//   ... on session end: await sandbox.dispose()                    // removes the private /tmp and the stand-ins
import { statSync } from "node:fs";
import { mkdtemp, realpath, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PithError } from "../../shared/errors.js";
import { physicalPath } from "../real-path.js";
import { assertWritable, writeRefusal } from "../write-guard.js";
import { wrapInBwrap, type BwrapLayout, type CommandLine } from "./bwrap-args.js";
import type { SandboxSettings, SandboxState } from "./config.js";
import { planProtection } from "./protection-plan.js";
import { placeStandIns, releaseStandIns } from "./stand-ins.js";

export interface Sandbox {
  readonly state: SandboxState;
  /** The private /tmp on the host. */
  readonly tmpDir: string;
  /** Resolved writable roots: the cwd and `writableRoots` (workspace-write); none in read-only mode. */
  readonly roots: readonly string[];
  /** For `ExecOps`' `wrapCommand` hook: the command line run inside bubblewrap, starting in `cwd`. */
  wrap(line: CommandLine, cwd: string): CommandLine;
  /** For the write/edit tools' `guardWrite` hook: the physical path to write, or throws saying why not. */
  guardWrite(absPath: string): Promise<string>;
  /** For the file tools' confined writes: why a write may not land at a physical path (undefined: it may). */
  refuseWrite(real: string, shown: string): string | undefined;
  /** The paths kept read-only inside the roots, as the disk is now (physical). */
  protectedPaths(): string[];
  /** Removes the private /tmp and the stand-ins no other sandbox of this process holds. */
  dispose(): Promise<void>;
}

export interface PrepareOptions {
  /** The session cwd (absolute). */
  cwd: string;
  /** Where the private /tmp folder is created. Default the OS temp dir. */
  tmpBase?: string;
  /** The bwrap binary. Default "bwrap". */
  bwrap?: string;
  /** pith's own folders commands must be able to write even in read-only mode (e.g. the user shell's state folder); not shown in get_state. */
  extraWritable?: readonly string[];
  /** More folders kept read-only when they lie inside a writable root (pith's home: global settings and extensions). */
  protect?: readonly string[];
  /** Files that hold pith's credentials (the key file, models.json): they cannot be read inside the sandbox. */
  hide?: readonly string[];
}

async function resolvedDir(path: string, what: string): Promise<string> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (err) {
    throw new PithError("config", `${what} ${path} does not exist (${(err as NodeJS.ErrnoException).code ?? "error"}).`);
  }
  if (!(await stat(real)).isDirectory()) throw new PithError("config", `${what} ${path} is not a folder.`);
  return real;
}

/** The files of `paths` that exist now (a mount needs its target). */
function existingFiles(paths: readonly string[]): string[] {
  return paths.filter((p) => statSync(p, { throwIfNoEntry: false })?.isFile() === true);
}

/** Resolves the roots and creates the private /tmp; throws a `config` PithError for a missing root. */
export async function prepareSandbox(settings: SandboxSettings, opts: PrepareOptions): Promise<Sandbox> {
  if (settings.mode === "off") throw new PithError("internal", "prepareSandbox called with the sandbox off");
  const mode = settings.mode;
  const cwd = await resolvedDir(opts.cwd, "The working directory");
  const extra: string[] = [];
  for (const root of settings.writableRoots ?? []) extra.push(await resolvedDir(root, "The writable root"));
  const internal: string[] = [];
  for (const dir of opts.extraWritable ?? []) internal.push(await resolvedDir(dir, "The folder"));
  const roots = mode === "workspace-write" ? [...new Set([cwd, ...extra])] : [];
  const extraProtected: string[] = [];
  for (const path of opts.protect ?? []) extraProtected.push(await physicalPath(path));
  const plan = () => planProtection(roots, extraProtected);
  plan(); // a protected path that cannot be protected (a symbolic link) stops the start here
  const tmpDir = await mkdtemp(join(opts.tmpBase ?? tmpdir(), "pith-sandbox-"));
  const layout: BwrapLayout = {
    mode,
    network: settings.network === true,
    bwrap: opts.bwrap ?? "bwrap",
    tmpDir,
    writable: [...roots, ...internal],
    readable: mode === "read-only" ? [cwd] : [],
  };
  const state: SandboxState = { mode, network: layout.network, writableRoots: [...(settings.writableRoots ?? [])] };
  const hidden: string[] = [];
  for (const file of opts.hide ?? []) hidden.push(await physicalPath(file));
  const holder = {};
  return {
    state,
    tmpDir,
    roots,
    wrap: (line, dir) => {
      const p = plan();
      const readOnly = placeStandIns(p.entries, holder).map((e) => e.path);
      return wrapInBwrap({ ...layout, protect: { pinned: p.pinned, readOnly }, hidden: existingFiles(hidden) }, line, dir);
    },
    guardWrite: async (absPath) => assertWritable(absPath, { mode, roots, protectedPaths: plan().entries.map((e) => e.path) }),
    refuseWrite: writeRefusal({ mode, roots }, () => plan().entries.map((e) => e.path)),
    protectedPaths: () => plan().entries.map((e) => e.path),
    dispose: async () => {
      releaseStandIns(holder);
      await rm(tmpDir, { recursive: true, force: true });
    },
  };
}
