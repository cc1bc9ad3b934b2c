// The settings' `extensions` list loads extensions and pi package folders as `-e` does: the
// global file's paths are relative to PITH_HOME, the project file's to the project's `.pith`
// folder, and the project file's list loads only in a trusted folder (a hostile repository's
// settings cannot name code to run).
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Pith, tempDir, trackPiths } from "./harness.js";

const open = trackPiths();

/** An extension whose `/hello` command notifies `text`; loading it writes `marker` when given. */
function extensionSource(text: string, marker?: string): string {
  const write = marker ? `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "loaded");\n` : "";
  return `${write}export default (pi) => {\n  pi.registerFlag("loud", { type: "boolean", default: false });\n  pi.registerCommand("hello", { handler: async (_a, ctx) => ctx.ui.notify(${JSON.stringify(text)} + " loud=" + pi.getFlag("loud")) });\n};\n`;
}

async function hello(p: Pith): Promise<string | undefined> {
  const from = p.frames.length;
  const res = await p.request({ type: "prompt", message: "/hello" });
  if (!res.success) return undefined;
  const note = await p.waitFor((f) => (f.type === "extension_ui_request" && f.method === "notify") || f.type === "prompt_result", 15_000, from);
  return note.type === "extension_ui_request" ? note.message : undefined;
}

describe("settings.json extensions", () => {
  it("the global list loads a pi package folder relative to PITH_HOME, and its flags are accepted", async () => {
    const home = tempDir("pith-home-");
    const pkg = path.join(home, "packages", "greeter");
    mkdirSync(pkg, { recursive: true });
    writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "greeter", pi: { extensions: ["./greeter.mjs"] } }));
    writeFileSync(path.join(pkg, "greeter.mjs"), extensionSource("from global settings"));
    writeFileSync(path.join(home, "settings.json"), JSON.stringify({ extensions: ["packages/greeter"] }));
    const p = await Pith.start({ pithHome: home, args: ["--loud"] });
    open.push(p);
    expect(await hello(p)).toBe("from global settings loud=true");
  });

  it("the project list loads only when the folder is trusted, relative to .pith", async () => {
    const cwd = tempDir("pith-project-");
    const marker = path.join(cwd, "ran.txt");
    mkdirSync(path.join(cwd, ".pith", "ext"), { recursive: true });
    writeFileSync(path.join(cwd, ".pith", "ext", "project.mjs"), extensionSource("from project settings", marker));
    writeFileSync(path.join(cwd, ".pith", "settings.json"), JSON.stringify({ extensions: ["ext/project.mjs"] }));

    const untrusted = await Pith.start({ cwd });
    open.push(untrusted);
    expect(await hello(untrusted)).toBeUndefined();
    expect(existsSync(marker)).toBe(false);
    await untrusted.close();

    const trusted = await Pith.start({ cwd, args: ["--trust-project"] });
    open.push(trusted);
    expect(await hello(trusted)).toBe("from project settings loud=false");
    expect(existsSync(marker)).toBe(true);
  });
});
