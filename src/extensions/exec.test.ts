import { describe, expect, it } from "vitest";
import { execCommand } from "./exec.js";

describe("execCommand (pi.exec)", () => {
  it("captures stdout, stderr and the exit code, in the given cwd", async () => {
    const script = "process.stdout.write(process.cwd()); process.stderr.write('warn'); process.exit(3)";
    const r = await execCommand(process.execPath, ["-e", script], "/");
    expect(r).toEqual({ stdout: "/", stderr: "warn", code: 3, killed: false });
  });

  it("kills the process group on abort", async () => {
    const ac = new AbortController();
    const p = execCommand(process.execPath, ["-e", "setInterval(() => {}, 1000); process.stdout.write('up')"], "/", { signal: ac.signal });
    ac.abort();
    const r = await p;
    expect(r.killed).toBe(true);
    expect(r.code).not.toBe(0);
  });

  it("a missing command resolves with an error instead of throwing", async () => {
    const r = await execCommand("pith-no-such-command-xyz", [], "/");
    expect(r.code).toBe(127);
    expect(r.stderr).toMatch(/ENOENT/);
  });
});
