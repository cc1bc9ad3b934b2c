// Can bubblewrap sandbox commands here? Run it once, with the namespaces a real sandbox uses,
// around `true`. Call it at startup when a sandbox mode is set: on failure pith must refuse to
// start (never run unsandboxed), printing `error`, which says how to fix it.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { wrapInBwrap } from "./bwrap-args.js";

export type SandboxProbe = { ok: true; bwrap: string } | { ok: false; error: string };

export interface ProbeOptions {
  /** The bwrap binary (a name looked up on PATH, or a path). Default "bwrap". */
  bwrap?: string;
  /** Probe with the network namespace unshared too (as sandboxed commands without network run). Default true. */
  unshareNet?: boolean;
  /** Default 10 s. */
  timeoutMs?: number;
  /** Where the probe's scratch /tmp goes. Default the OS temp dir. */
  tmpBase?: string;
}

const INSTALL_HINT =
  "Install it (Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap; Alpine: apk add bubblewrap), or start pith without a sandbox (--sandbox off).";

const NAMESPACE_HINT =
  "Allow unprivileged user namespaces (sysctl -w kernel.unprivileged_userns_clone=1 on Debian-patched kernels; " +
  "sysctl -w user.max_user_namespaces=15000 if it is 0; on Ubuntu 23.10+ also sysctl -w kernel.apparmor_restrict_unprivileged_userns=0 " +
  "or an AppArmor profile that allows bwrap), or inside a container run it with unshare allowed (e.g. docker run --security-opt seccomp=unconfined " +
  "--security-opt apparmor=unconfined, or --privileged), or make bwrap setuid root; or start pith without a sandbox (--sandbox off).";

interface RunResult {
  code: number | null;
  stderr: string;
  errno?: string;
  timedOut: boolean;
}

function run(file: string, args: string[], timeoutMs: number): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: timeoutMs, killSignal: "SIGKILL" }, (err, _stdout, stderr) => {
      if (!err) return resolve({ code: 0, stderr: String(stderr), timedOut: false });
      const e = err as NodeJS.ErrnoException & { code?: string | number; killed?: boolean };
      resolve({
        code: typeof e.code === "number" ? e.code : null,
        stderr: String(stderr ?? ""),
        errno: typeof e.code === "string" ? e.code : undefined,
        timedOut: e.killed === true,
      });
    });
  });
}

/** Runs `bwrap ... -- true`; resolves (never rejects) with ok, or an error that says how to fix it. */
export async function probeSandbox(opts: ProbeOptions = {}): Promise<SandboxProbe> {
  const bwrap = opts.bwrap ?? "bwrap";
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const tmpDir = await mkdtemp(join(opts.tmpBase ?? tmpdir(), "pith-sandbox-probe-"));
  try {
    const layout = { mode: "workspace-write" as const, network: opts.unshareNet === false, bwrap, tmpDir, writable: [tmpDir], readable: [] };
    const line = wrapInBwrap(layout, { file: "true", args: [] }, "/");
    const res = await run(line.file, line.args, timeoutMs);
    if (res.code === 0) return { ok: true, bwrap };
    if (res.errno === "ENOENT") return { ok: false, error: `The sandbox needs bubblewrap (${bwrap}), which is not installed or not on PATH. ${INSTALL_HINT}` };
    if (res.errno === "EACCES") return { ok: false, error: `The sandbox needs bubblewrap, but ${bwrap} cannot be executed (permission denied). ${INSTALL_HINT}` };
    if (res.timedOut) return { ok: false, error: `bubblewrap did not run a trivial sandboxed command within ${timeoutMs} ms; the sandbox cannot be trusted here. ${NAMESPACE_HINT}` };
    const said = res.stderr.trim().split("\n").slice(-3).join(" ") || `exit code ${res.code ?? "?"}`;
    return { ok: false, error: `bubblewrap is installed but cannot create its sandbox here (${said}). ${NAMESPACE_HINT}` };
  } finally {
    await rm(tmpDir, { recursive: true, force: true });
  }
}
