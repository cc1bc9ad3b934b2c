// The sandbox for real: bubblewrap around commands run through the tools' exec operations (the
// `wrapCommand` hook), as the bash tool and the user `bash` command will run them.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createNodeExecOps } from "../../tools/ops/exec-ops.js";
import { makeScratch, runWrapped, type Scratch } from "../../../test/support/policy.js";
import { bwrapOptions } from "./bwrap-args.js";
import { probeSandbox } from "./probe.js";
import { prepareSandbox, type Sandbox } from "./session-sandbox.js";
import type { SandboxSettings } from "./config.js";

const probe = await probeSandbox();
if (!probe.ok) console.warn(`[sandbox tests skipped] ${probe.error}`);

let s: Scratch;
const open: Sandbox[] = [];
beforeAll(() => {
  s = makeScratch();
});
afterAll(async () => {
  await Promise.all(open.map((sb) => sb.dispose()));
  s.cleanup();
});

async function sandbox(settings: SandboxSettings): Promise<Sandbox> {
  const sb = await prepareSandbox(settings, { cwd: s.cwd });
  open.push(sb);
  return sb;
}

const run = (sb: Sandbox, command: string) => runWrapped(sb.wrap, s.cwd, command);

describe.skipIf(!probe.ok)("bubblewrap sandbox (workspace-write)", () => {
  it("cannot write outside the cwd: touch /etc/x and echo > ../x fail, the host is untouched", async () => {
    const sb = await sandbox({ mode: "workspace-write" });
    const etc = await run(sb, "touch /etc/pith-sandbox-test");
    expect(etc.code).not.toBe(0);
    expect(etc.out).toMatch(/Read-only file system/);
    expect(existsSync("/etc/pith-sandbox-test")).toBe(false);
    const up = await run(sb, "echo escaped > ../x");
    expect(up.code).not.toBe(0);
    expect(existsSync(join(s.cwd, "..", "x"))).toBe(false);
  });

  it("writes inside the cwd reach the host: a build and its test run", async () => {
    const sb = await sandbox({ mode: "workspace-write" });
    const build = await run(sb, "mkdir -p out && printf 'echo built' > out/build.sh && sh out/build.sh > out/log && grep -q built out/log && echo ok");
    expect(build).toEqual({ code: 0, out: "ok\n" });
    expect(readFileSync(join(s.cwd, "out", "log"), "utf8")).toBe("built\n");
  });

  it("writable roots are writable too; nothing else is", async () => {
    const root = join(s.outside, "root");
    mkdirSync(root);
    const sb = await sandbox({ mode: "workspace-write", writableRoots: [root] });
    expect((await run(sb, `echo r > ${root}/f`)).code).toBe(0);
    expect(readFileSync(join(root, "f"), "utf8")).toBe("r\n");
    expect((await run(sb, `echo r > ${s.outside}/g`)).code).not.toBe(0);
    expect(existsSync(join(s.outside, "g"))).toBe(false);
  });

  it("a private /tmp: shared by the session's commands, TMPDIR points there, the host's /tmp stays unwritten", async () => {
    const sb = await sandbox({ mode: "workspace-write" });
    const name = `pith-private-${process.pid}-${Date.now()}`;
    expect(await run(sb, `echo "$TMPDIR" && echo shared > /tmp/${name}`)).toEqual({ code: 0, out: "/tmp\n" });
    expect(await run(sb, `cat /tmp/${name}`)).toEqual({ code: 0, out: "shared\n" });
    expect(existsSync(join("/tmp", name))).toBe(false);
    expect(readFileSync(join(sb.tmpDir, name), "utf8")).toBe("shared\n");
    const other = await sandbox({ mode: "workspace-write" });
    expect((await run(other, `cat /tmp/${name}`)).code).not.toBe(0);
    await sb.dispose();
    expect(existsSync(sb.tmpDir)).toBe(false);
  });

  it("drops every capability, so not even root can remount the file system writable", async () => {
    const sb = await sandbox({ mode: "workspace-write" });
    const caps = await run(sb, "grep CapEff /proc/self/status");
    expect(caps.out).toBe("CapEff:\t0000000000000000\n");
    const remount = await run(sb, "mount -o remount,rw / && touch /etc/pith-remounted");
    expect(remount.code).not.toBe(0);
    expect(existsSync("/etc/pith-remounted")).toBe(false);
  });

  it("runs in a new PID namespace", async () => {
    const sb = await sandbox({ mode: "workspace-write" });
    const r = await run(sb, "echo $$; ls /proc | grep -c '^[0-9]'");
    const [pid, count] = r.out.trim().split("\n").map(Number);
    expect(pid).toBeLessThan(10);
    expect(count).toBeLessThan(10);
  });

  it("abort and timeout still kill the whole sandboxed process group", async () => {
    const sb = await sandbox({ mode: "workspace-write" });
    const ops = createNodeExecOps({ wrapCommand: sb.wrap, killGraceMs: 500 });
    const ac = new AbortController();
    const marker = `pith-abort-${process.pid}-${Date.now()}`;
    const running = ops.exec(`(exec -a ${marker} sleep 300) & wait`, { cwd: s.cwd, signal: ac.signal, onData: () => {} });
    const alive = () => readdirSync("/proc").some((p) => /^\d+$/.test(p) && readCmdline(p).startsWith(marker));
    expect(await waitFor(alive, true)).toBe(true);
    ac.abort();
    expect(await running).toMatchObject({ aborted: true, exitCode: null });
    expect(await waitFor(alive, false)).toBe(false);
    expect(await ops.exec("sleep 300", { cwd: s.cwd, timeoutMs: 300, onData: () => {} })).toMatchObject({ timedOut: true });
  });

  it("the child dies with its parent", async () => {
    const sb = await sandbox({ mode: "workspace-write" });
    const marker = `pith-die-with-parent-${process.pid}-${Date.now()}`;
    const line = sb.wrap({ file: "/bin/bash", args: ["-c", `exec -a ${marker} sleep 300`] }, s.cwd);
    const parent = spawn(process.execPath, ["-e", `require("child_process").spawn(${JSON.stringify(line.file)}, ${JSON.stringify(line.args)}, { stdio: "ignore" }); setInterval(() => {}, 1000);`], { stdio: "ignore" });
    const pids = () => readdirSync("/proc").filter((p) => /^\d+$/.test(p) && readCmdline(p).includes(marker));
    const alive = () => pids().some((p) => readCmdline(p).startsWith(marker));
    try {
      expect(await waitFor(alive, true)).toBe(true);
      parent.kill("SIGKILL");
      expect(await waitFor(alive, false)).toBe(false);
    } finally {
      parent.kill("SIGKILL");
      for (const pid of pids()) killIfAlive(Number(pid)); // only when the test failed: leave nothing behind
    }
  });
});

describe.skipIf(!probe.ok)("bubblewrap sandbox: network", () => {
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((sock) => {
      connections++;
      sock.end("hello\n");
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const connect = () => `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`;

  it("a loopback port is unreachable with network off", async () => {
    const before = connections;
    const r = await run(await sandbox({ mode: "workspace-write" }), connect());
    expect(r.code).not.toBe(0);
    expect(r.out).toMatch(/Connection refused|Network is unreachable/);
    expect(connections).toBe(before);
  });

  it("and reachable with network on", async () => {
    const before = connections;
    expect(await run(await sandbox({ mode: "workspace-write", network: true }), connect())).toEqual({ code: 0, out: "hello\n" });
    expect(connections).toBe(before + 1);
  });
});

describe.skipIf(!probe.ok)("bubblewrap sandbox (read-only)", () => {
  it("refuses every write: the cwd, /tmp, outside; reading still works", async () => {
    writeFileSync(join(s.cwd, "readme.txt"), "read me\n");
    const sb = await sandbox({ mode: "read-only" });
    expect(sb.roots).toEqual([]);
    for (const cmd of ["touch new.txt", "echo x > readme.txt", "mkdir d", "echo x > /tmp/x", "touch ../x", "rm readme.txt", "touch /etc/x"]) {
      const r = await run(sb, cmd);
      expect(r.code, cmd).not.toBe(0);
      expect(r.out, cmd).toMatch(/Read-only file system/);
    }
    expect(await run(sb, "cat readme.txt && echo $TMPDIR")).toEqual({ code: 0, out: "read me\n/tmp\n" });
    expect(readdirSync(s.cwd).sort()).not.toContain("new.txt");
    expect(readFileSync(join(s.cwd, "readme.txt"), "utf8")).toBe("read me\n");
  });
});

describe("sandbox set-up", () => {
  it("a missing bwrap is a clear error saying how to fix it", async () => {
    const r = await probeSandbox({ bwrap: "/nonexistent/bwrap" });
    expect(r).toEqual({ ok: false, error: expect.stringContaining("which is not installed or not on PATH. Install it (Debian/Ubuntu: apt-get install bubblewrap") });
  });

  it("a bwrap that cannot create namespaces is a clear error saying how to fix it", async () => {
    const fake = join(s.outside, "fake-bwrap");
    writeFileSync(fake, "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.' >&2\nexit 1\n", { mode: 0o755 });
    const r = await probeSandbox({ bwrap: fake });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(/^bubblewrap is installed but cannot create its sandbox here \(bwrap: No permissions to creating new namespace.*\)\. Allow unprivileged user namespaces/);
  });

  it("a missing writable root is a config error naming it", async () => {
    await expect(prepareSandbox({ mode: "workspace-write", writableRoots: ["/nonexistent/root"] }, { cwd: s.cwd })).rejects.toMatchObject({
      code: "config",
      message: "The writable root /nonexistent/root does not exist (ENOENT).",
    });
  });

  it("bwrap options: namespaces, read-only root, private /tmp, binds after it, TMPDIR, cwd", () => {
    const layout = { mode: "workspace-write" as const, network: false, bwrap: "bwrap", tmpDir: "/tmp/pith-sandbox-1", writable: ["/tmp/a/proj", "/data"], readable: [] };
    expect(bwrapOptions(layout, "/tmp/a/proj")).toEqual([
      "--die-with-parent", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--unshare-net",
      "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
      "--ro-bind-try", "/proc/sys", "/proc/sys", "--ro-bind-try", "/proc/sysrq-trigger", "/proc/sysrq-trigger",
      "--bind", "/tmp/pith-sandbox-1", "/tmp",
      "--ro-bind", "/tmp/a", "/tmp/a", "--bind", "/tmp/a/proj", "/tmp/a/proj", "--bind", "/data", "/data",
      "--setenv", "TMPDIR", "/tmp", "--chdir", "/tmp/a/proj",
    ]);
    const ro = bwrapOptions({ ...layout, mode: "read-only", network: true, writable: [], readable: ["/work/p"] }, "/work/p");
    expect(ro).not.toContain("--unshare-net");
    expect(ro.join(" ")).toContain("--ro-bind /work/p /work/p --remount-ro /tmp --setenv TMPDIR /tmp");
  });
});

function readCmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ");
  } catch {
    return ""; // the process ended while /proc was being listed
  }
}

function killIfAlive(pid: number): void {
  try {
    process.kill(pid, "SIGKILL");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") throw err;
  }
}

async function waitFor(check: () => boolean, want: boolean, ms = 10_000): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (check() === want) return want;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
