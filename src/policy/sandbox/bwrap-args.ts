// The bubblewrap command line around a child process (pure: no file system access).
//
//   bwrap --die-with-parent
//         --cap-drop ALL                        no capabilities, even when pith runs as root
//         --unshare-pid --unshare-ipc --unshare-uts --unshare-cgroup-try
//         [--unshare-net]                       no network unless allowed
//         --ro-bind / /                         the whole file system, read-only
//         --dev /dev --proc /proc               a minimal /dev, a /proc of the new PID namespace (pith's own
//                                               process and its environment are not in it)
//         --ro-bind-try /proc/sys /proc/sys     kernel settings read-only, even for root (and /proc/sysrq-trigger)
//         --bind <session tmp> /tmp             the session's private /tmp
//         --ro-bind /tmp/<a> /tmp/<a>           (a root under the host's /tmp: its top folder, read-only)
//         --ro-bind <cwd> <cwd>                 (read-only: the cwd stays visible under /tmp too)
//         --bind <root> <root> ...              the cwd and writable roots (workspace-write)
//         --bind <dir> <dir> ...                folders above protected paths, pinned (see protection-plan.ts)
//         --ro-bind <path> <path> ...           protected paths in the roots: .pith, .claude, .mcp.json, git's config and hooks
//         --ro-bind /dev/null <file> ...        files holding pith's credentials cannot be read (--api-key-file, models.json)
//         [--remount-ro /tmp]                   (read-only: /tmp too is read-only)
//         --setenv TMPDIR /tmp --chdir <dir> -- <file> <args...>
//
// Roots are bound after /tmp so a cwd under the host's /tmp stays reachable (with the rest of
// its top folder read-only, as everywhere else). No `--new-session`: the command already runs
// without a terminal, as its own process group leader, and the group is what abort and
// timeout kill.
import type { SandboxMode } from "./config.js";

export interface CommandLine {
  file: string;
  args: string[];
}

export interface BwrapLayout {
  mode: Exclude<SandboxMode, "off">;
  network: boolean;
  /** The bwrap binary. */
  bwrap: string;
  /** The session's private /tmp on the host. */
  tmpDir: string;
  /** Bound writable: the cwd and writable roots (workspace-write), pith's own state folders. Absolute, resolved. */
  writable: readonly string[];
  /** Bound read-only on top of the private /tmp (the cwd in read-only mode, so a cwd under /tmp stays visible). */
  readable: readonly string[];
  /** Inside the writable roots: folders bound onto themselves (pinned) and paths kept read-only, outermost first; all existing. */
  protect?: { pinned: readonly string[]; readOnly: readonly string[] };
  /** Existing files that cannot be read inside (they hold pith's credentials): /dev/null on a nodev mount. */
  hidden?: readonly string[];
}

/** Writable to uid 0 even without capabilities: the sandbox's /proc has them read-only. */
const KERNEL_KNOBS = ["/proc/sys", "/proc/sysrq-trigger"];

function dedupe(paths: readonly string[]): string[] {
  return [...new Set(paths)];
}

/** `/tmp/a/b/c` → `/tmp/a`: its host folder is bound read-only first, so `..` from a root under /tmp stays read-only. */
function topOfTmp(path: string): string | undefined {
  const m = /^\/tmp\/[^/]+/.exec(path);
  return m ? m[0] : undefined;
}

/** The bwrap options (everything before `--`). */
export function bwrapOptions(layout: BwrapLayout, chdir: string): string[] {
  const args = ["--die-with-parent", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try"];
  if (!layout.network) args.push("--unshare-net");
  args.push("--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc");
  for (const kernel of KERNEL_KNOBS) args.push("--ro-bind-try", kernel, kernel);
  args.push("--bind", layout.tmpDir, "/tmp");
  for (const top of dedupe([...layout.readable, ...layout.writable].map(topOfTmp).filter((t): t is string => t !== undefined))) {
    args.push("--ro-bind", top, top);
  }
  for (const root of dedupe(layout.readable)) args.push("--ro-bind", root, root);
  for (const root of dedupe(layout.writable)) args.push("--bind", root, root);
  for (const dir of layout.protect?.pinned ?? []) args.push("--bind", dir, dir);
  for (const path of layout.protect?.readOnly ?? []) args.push("--ro-bind", path, path);
  for (const file of layout.hidden ?? []) args.push("--ro-bind", "/dev/null", file);
  if (layout.mode === "read-only") args.push("--remount-ro", "/tmp");
  args.push("--setenv", "TMPDIR", "/tmp", "--chdir", chdir);
  return args;
}

/** `line` run inside the sandbox, starting in `chdir`. */
export function wrapInBwrap(layout: BwrapLayout, line: CommandLine, chdir: string): CommandLine {
  return { file: layout.bwrap, args: [...bwrapOptions(layout, chdir), "--", line.file, ...line.args] };
}
