// The sandbox a session starts with (`--sandbox` / `sandbox.*` settings): bubblewrap is probed
// first and pith refuses to start when it cannot sandbox (never a silent unsandboxed run); then
// the session's private /tmp, its writable roots (with pith's home kept read-only when a root
// holds it) and a folder for the `bash` command's shell state (bound writable at the same path,
// so the persistent shell works inside the sandbox; made in the OS temp folder itself, so the
// sandbox sees that folder and nothing else of the host's /tmp).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { prepareSandbox, probeSandbox, type Sandbox, type SandboxSettings } from "../policy/index.js";
import type { SessionSandbox } from "../session/index.js";
import { PithError } from "../shared/errors.js";
import { forgetAtExit, removeAtExit } from "./exit-cleanup.js";

export interface SessionSandboxSetup {
  sandbox: SessionSandbox;
  /** For the file-writing tools: the physical path to write, or throws saying why not. */
  guardWrite: Sandbox["guardWrite"];
  /** For every file tool's write: judges where it really lands, through verified folder handles. */
  refuseWrite: Sandbox["refuseWrite"];
  /** Where the `bash` command keeps its shell state (writable inside the sandbox). */
  shellDir: string;
}

export interface SandboxSetupOptions {
  cwd: string;
  /** pith's home (global settings and extensions): read-only to sandboxed commands when a writable root holds it. */
  pithHome: string;
  /** The bwrap binary; default "bwrap" on PATH. */
  bwrap?: string;
  /** Files holding pith's credentials (`--api-key-file`, models.json): sandboxed commands cannot read them. */
  credentialFiles?: readonly string[];
}

/** Throws a `config` PithError that says how to fix it when bubblewrap cannot sandbox here. */
export async function setUpSandbox(settings: SandboxSettings, o: SandboxSetupOptions): Promise<SessionSandboxSetup> {
  const probe = await probeSandbox({ bwrap: o.bwrap, unshareNet: settings.network !== true });
  if (!probe.ok) throw new PithError("config", `Cannot start with --sandbox ${settings.mode}: ${probe.error}`);
  const shellDir = await mkdtemp(path.join(tmpdir(), "pith-sandbox-shell-"));
  let sandbox: Sandbox;
  try {
    sandbox = await prepareSandbox(settings, { cwd: o.cwd, bwrap: probe.bwrap, extraWritable: [shellDir], protect: [o.pithHome], hide: o.credentialFiles });
  } catch (err) {
    await rm(shellDir, { recursive: true, force: true });
    throw err;
  }
  removeAtExit(sandbox.tmpDir);
  removeAtExit(shellDir);
  return {
    sandbox: {
      state: sandbox.state,
      wrap: (line, cwd) => sandbox.wrap(line, cwd),
      dispose: async () => {
        await sandbox.dispose();
        await rm(shellDir, { recursive: true, force: true });
        forgetAtExit(sandbox.tmpDir);
        forgetAtExit(shellDir);
      },
    },
    guardWrite: (abs) => sandbox.guardWrite(abs),
    refuseWrite: sandbox.refuseWrite,
    shellDir,
  };
}
