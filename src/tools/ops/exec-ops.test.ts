import { describe, expect, it } from "vitest";
import { createNodeExecOps } from "./exec-ops.js";
import { killAllProcessGroups, liveProcessGroups } from "./process-groups.js";

describe("exec ops", () => {
  it("passes extra env and reports the exit code", async () => {
    const chunks: Buffer[] = [];
    const res = await createNodeExecOps().exec("echo $PITH_T; exit 4", { cwd: "/", env: { PITH_T: "v" }, onData: (c) => chunks.push(c) });
    expect(res).toEqual({ exitCode: 4, aborted: false, timedOut: false });
    expect(Buffer.concat(chunks).toString()).toBe("v\n");
  });
  it("does not wait for background children holding the pipes", async () => {
    const res = await createNodeExecOps({ drainMs: 50 }).exec("sleep 30 & echo hi", { cwd: "/", onData: () => {} });
    expect(res.exitCode).toBe(0);
    expect(liveProcessGroups().length).toBeGreaterThan(0);
    killAllProcessGroups();
    expect(liveProcessGroups()).toEqual([]);
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
