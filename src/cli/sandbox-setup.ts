// The sandbox a session starts with (`--sandbox` / `sandbox.*` settings): bubblewrap is probed
// first and pith refuses to start when it cannot sandbox (never a silent unsandboxed run); then
// the session's private /tmp, its writable roots and a folder for the `bash` command's shell
// state (bound writable at the same path, so the persistent shell works inside the sandbox).
import { rmSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import path from "node:path";
import { prepareSandbox, probeSandbox, type Sandbox, type SandboxSettings } from "../policy/index.js";
import type { SessionSandbox } from "../session/index.js";
import { PithError } from "../shared/errors.js";

export interface SessionSandboxSetup {
  sandbox: SessionSandbox;
  /** For edit/write: the physical path to write, or throws saying why not. */
  guardWrite: Sandbox["guardWrite"];
  /** For every file tool's write: judges where it really lands, through verified folder handles. */
  refuseWrite: Sandbox["refuseWrite"];
  /** Where the `bash` command keeps its shell state and full outputs (writable inside the sandbox). */
  shellDir: string;
}

export interface SandboxSetupOptions {
  cwd: string;
  /** pith's temp folder (the shell-state folder goes under it). */
  tempDir: string;
  /** The bwrap binary; default "bwrap" on PATH. */
  bwrap?: string;
}

/** Folders of the sandboxes still set up: removed at exit even when pith is stopped by a signal. */
const live = new Set<string>();

/** Removes every sandbox folder still there (the process "exit" handler calls it). */
export function removeSandboxFoldersSync(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // at exit there is no one left to tell: the folder stays in the OS temp folder
    }
  }
  live.clear();
}

/** Throws a `config` PithError that says how to fix it when bubblewrap cannot sandbox here. */
export async function setUpSandbox(settings: SandboxSettings, o: SandboxSetupOptions): Promise<SessionSandboxSetup> {
  const probe = await probeSandbox({ bwrap: o.bwrap, unshareNet: settings.network !== true });
  if (!probe.ok) throw new PithError("config", `Cannot start with --sandbox ${settings.mode}: ${probe.error}`);
  const shellDir = await mkdtemp(path.join(o.tempDir, "pith-sandbox-shell-"));
  let sandbox: Sandbox;
  try {
    sandbox = await prepareSandbox(settings, { cwd: o.cwd, bwrap: probe.bwrap, extraWritable: [shellDir] });
  } catch (err) {
    await rm(shellDir, { recursive: true, force: true });
    throw err;
  }
  live.add(sandbox.tmpDir).add(shellDir);
  return {
    sandbox: {
      state: sandbox.state,
      wrap: (line, cwd) => sandbox.wrap(line, cwd),
      dispose: async () => {
        await sandbox.dispose();
        await rm(shellDir, { recursive: true, force: true });
        live.delete(sandbox.tmpDir);
        live.delete(shellDir);
      },
    },
    guardWrite: (abs) => sandbox.guardWrite(abs),
    refuseWrite: sandbox.refuseWrite,
    shellDir,
  };
}
