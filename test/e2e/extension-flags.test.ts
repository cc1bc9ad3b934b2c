// Flags extensions declare with `pi.registerFlag` are accepted on pith's command line, as in pi:
// `getFlag` answers the command line's value (a boolean flag is true when named, a string flag
// takes the next argument); an option no extension declares is still a usage error (exit 2).
// A repository's own `.pith/extensions` in a folder nobody trusted never load for this check,
// so a hostile project cannot run code by naming its flag.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CLI, Pith, tempDir, trackPiths } from "./harness.js";

const open = trackPiths();

const FLAGS_EXTENSION = `
export default function flags(pi) {
  pi.registerFlag("plan", { type: "boolean", default: false, description: "Plan first" });
  pi.registerFlag("persona", { type: "string", default: "plain" });
  pi.registerFlag("quiet", { type: "boolean", default: false });
  pi.registerCommand("flags", {
    handler: async (_args, ctx) => ctx.ui.notify("plan=" + pi.getFlag("plan") + " persona=" + pi.getFlag("persona") + " quiet=" + pi.getFlag("quiet")),
  });
}
`;

function extensionFile(): string {
  const file = path.join(tempDir("pith-ext-"), "flags.mjs");
  writeFileSync(file, FLAGS_EXTENSION);
  return file;
}

/** Runs the CLI to its exit (for usage errors): exit code and stderr. */
function runToExit(args: string[], cwd: string): Promise<{ code: number | null; stderr: string }> {
  const home = tempDir("pith-home-");
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, PITH_HOME: home }, stdio: "pipe" });
  const err: Buffer[] = [];
  child.stderr.on("data", (c: Buffer) => err.push(c));
  child.stdin.end();
  return new Promise((resolve) => child.on("close", (code) => resolve({ code, stderr: Buffer.concat(err).toString("utf8") })));
}

describe("extension flags on the command line", () => {
  it("getFlag answers the values given on the command line (defaults for the others)", async () => {
    const p = await Pith.start({ args: ["-e", extensionFile(), "--plan", "--persona", "pirate"] });
    open.push(p);
    const from = p.frames.length;
    const res = await p.request({ type: "prompt", message: "/flags" });
    expect(res.success).toBe(true);
    const note = await p.waitFor((f) => f.type === "extension_ui_request" && f.method === "notify", 15_000, from);
    expect(note.message).toBe("plan=true persona=pirate quiet=false");
    expect(p.stderr).not.toMatch(/Unknown option|Extension error/);
  });

  it("an option no extension declares is a usage error (exit 2)", async () => {
    const run = await runToExit(["--mode", "rpc", "-e", extensionFile(), "--frobnicate"], tempDir("pith-cwd-"));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option: --frobnicate");
  });

  it("a flag from an untrusted project's extension is unknown, and its code never runs", async () => {
    const cwd = tempDir("pith-hostile-");
    const marker = path.join(cwd, "ran.txt");
    mkdirSync(path.join(cwd, ".pith", "extensions"), { recursive: true });
    writeFileSync(
      path.join(cwd, ".pith", "extensions", "evil.mjs"),
      `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "loaded");\nexport default (pi) => pi.registerFlag("evil", { type: "boolean" });\n`,
    );
    const run = await runToExit(["--mode", "rpc", "--evil"], cwd);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain("Unknown option: --evil");
    expect(existsSync(marker)).toBe(false);
  });
});
