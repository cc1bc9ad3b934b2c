import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createNodeExecOps } from "./exec-ops.js";
import { killAllProcessGroups, liveProcessGroups } from "./process-groups.js";

/** Polls until `pid` no longer runs (a zombie counts as gone); false after 5 s. */
async function gone(pid: number): Promise<boolean> {
  for (let i = 0; i < 500; i++) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    if (stat === "" || stat.slice(stat.lastIndexOf(")") + 2).startsWith("Z")) return true;
    await new Promise((r) => setTimeout(r, 10));
  }
  return false;
}

describe("exec ops", () => {
  it("passes extra env and reports the exit code", async () => {
    const chunks: Buffer[] = [];
    const res = await createNodeExecOps().exec("echo $PITH_T; exit 4", { cwd: "/", env: { PITH_T: "v" }, onData: (c) => chunks.push(c) });
    expect(res).toEqual({ exitCode: 4, aborted: false, timedOut: false });
    expect(Buffer.concat(chunks).toString()).toBe("v\n");
  });
  it("does not wait for background children holding the pipes, and ends them with the command", async () => {
    const out: Buffer[] = [];
    const res = await createNodeExecOps({ drainMs: 50 }).exec("sleep 30 & echo $!", { cwd: "/", onData: (c) => out.push(c) });
    expect(res.exitCode).toBe(0);
    const background = Number(Buffer.concat(out).toString().trim());
    expect(await gone(background)).toBe(true);
  });
  it("a background job that ignores SIGTERM is killed after the grace period", async () => {
    const out: Buffer[] = [];
    const ops = createNodeExecOps({ drainMs: 20, killGraceMs: 100 });
    const res = await ops.exec("(trap '' TERM; sleep 30) >/dev/null 2>&1 & echo $!", { cwd: "/", onData: (c) => out.push(c) });
    expect(res.exitCode).toBe(0);
    expect(await gone(Number(Buffer.concat(out).toString().trim()))).toBe(true);
  });
  it("killAllProcessGroups ends running commands", async () => {
    const running = createNodeExecOps().exec("sleep 30", { cwd: "/", onData: () => {} });
    for (let i = 0; i < 200 && liveProcessGroups().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    killAllProcessGroups();
    const res = await running;
    expect(res.exitCode).toBeNull();
  });
  it("resolves at once for an already-aborted signal", async () => {
    const ac = new AbortController();
    ac.abort();
    expect(await createNodeExecOps().exec("echo x", { cwd: "/", signal: ac.signal, onData: () => {} })).toEqual({ exitCode: null, aborted: true, timedOut: false });
  });
});

describe("exec ops with a wrapCommand hook (the sandbox sets one)", () => {
  it("spawns the rewritten line, in the command's cwd, with the usual env and group handling", async () => {
    const seen: { line: { file: string; args: string[] }; cwd: string }[] = [];
    const ops = createNodeExecOps({
      shell: "/bin/sh",
      wrapCommand: (line, cwd) => {
        seen.push({ line, cwd });
        return { file: "/bin/sh", args: ["-c", 'echo wrapped "$@"; exec "$0" "$@"', line.file, ...line.args] };
      },
    });
    const chunks: Buffer[] = [];
    const res = await ops.exec("echo in $PITH_T; pwd", { cwd: "/tmp", env: { PITH_T: "v" }, onData: (c) => chunks.push(c) });
    expect(res).toEqual({ exitCode: 0, aborted: false, timedOut: false });
    expect(seen).toEqual([{ line: { file: "env", args: ["PITH_T=v", "/bin/sh", "-c", "echo in $PITH_T; pwd"] }, cwd: "/tmp" }]);
    expect(Buffer.concat(chunks).toString()).toBe("wrapped PITH_T=v /bin/sh -c echo in $PITH_T; pwd\nin v\n/tmp\n");
  });
});
