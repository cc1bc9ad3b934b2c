// The Python client's own test suite (clients/python/tests) against the built dist/cli.js.
import { describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Debian's python3 (its python3-websockets serves the pith serve tests), else the one on PATH. */
const PYTHON = existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

function run(cmd: string, args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: ROOT,
      env: { ...process.env, NODE: process.execPath, PYTHONDONTWRITEBYTECODE: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.stderr.on("data", (c: Buffer) => (output += c.toString("utf8")));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("Python client (pith_client)", () => {
  it("passes its unittest suite against dist/cli.js", async () => {
    const { code, output } = await run(PYTHON, ["-m", "unittest", "discover", "-v", "-s", "clients/python/tests"]);
    expect(output, output).toMatch(/\nOK\b/);
    expect(code, output).toBe(0);
    const ran = Number(/Ran (\d+) tests?/.exec(output)?.[1] ?? 0);
    expect(ran).toBeGreaterThanOrEqual(16);
    expect(output).not.toMatch(/skipped/);
  }, 300_000);

  it("runs examples/hosts/python_orchestrator.py offline", async () => {
    const { code, output } = await run(PYTHON, ["examples/hosts/python_orchestrator.py"]);
    expect(code, output).toBe(0);
    expect(output).toContain("[tool] calendar_lookup");
    expect(output).toContain("[dialog] confirm: Deploy");
    expect(output).toContain("agenda-sync is approved.");
    expect(output).toMatch(/\[stats\] 3 user/);
  }, 60_000);
});
