// The published package: `npm pack`, installed into an empty folder, brings only what `dist/`
// loads at run time (everything else is bundled), and its `pith` binary answers a host.
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { tempDir } from "./harness.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

/** Top-level package names under node_modules (scoped ones as `@scope/name`). */
function installedPackages(dir: string): string[] {
  const names: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name.startsWith(".")) continue;
    if (e.name.startsWith("@")) for (const s of readdirSync(path.join(dir, e.name))) names.push(`${e.name}/${s}`);
    else names.push(e.name);
  }
  return names;
}

/** Sends one line to `pith --mode rpc` and resolves with the first response frame. */
function firstResponse(bin: string, cwd: string, home: string, line: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ["--mode", "rpc", "--no-session"], {
      cwd,
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home, ANTHROPIC_API_KEY: "sk-test" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
      for (const l of out.split("\n").slice(0, -1)) {
        const frame = JSON.parse(l) as Record<string, unknown>;
        if (frame.type === "response") {
          child.stdin.end();
          resolve(frame);
        }
      }
    });
    child.on("error", reject);
    child.on("close", (code) => reject(new Error(`pith exited ${code} before answering: ${err}`)));
    child.stdin.write(line + "\n");
  });
}

describe("the packed package", () => {
  it("installs only the runtime dependencies, and its pith answers get_state", async () => {
    const packDir = tempDir("pith-pack-");
    const tarball = execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], { cwd: ROOT, encoding: "utf8" }).trim().split("\n").pop()!;
    const app = tempDir("pith-install-");
    writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "host-app", version: "1.0.0", private: true }));
    // The registry is reached only for what the cache lacks (the project's own install filled it).
    execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", path.join(packDir, tarball)], {
      cwd: app,
      stdio: ["ignore", "ignore", "pipe"],
    });

    const installed = installedPackages(path.join(app, "node_modules"));
    for (const dep of Object.keys(pkg.dependencies)) expect(installed, dep).toContain(dep);
    const bundled = Object.keys(pkg.devDependencies).filter((d) => installed.includes(d));
    expect(bundled, "devDependencies pulled by installing the package").toEqual([]);
    // Large bundled libraries are not fetched again as transitive packages either.
    for (const heavy of ["@modelcontextprotocol/sdk", "@ai-sdk/anthropic", "mathjs", "zod", "express"]) expect(installed).not.toContain(heavy);

    const home = tempDir("pith-install-home-");
    const frame = await firstResponse(path.join(app, "node_modules", ".bin", "pith"), app, home, JSON.stringify({ id: "s", type: "get_state" }));
    expect(frame).toMatchObject({ id: "s", type: "response", command: "get_state", success: true });
  }, 240_000);
});
