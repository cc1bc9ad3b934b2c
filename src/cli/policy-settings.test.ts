// The `permissions` and `sandbox` settings: defaults, validation naming the bad rule, the
// project file adding rules to the global file's, and what the session receives.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { loadSettings, toSessionSettings } from "./settings.js";

function load(global?: unknown, project?: unknown) {
  const dir = mkdtempSync(path.join(tmpdir(), "pith-policy-settings-"));
  const globalPath = path.join(dir, "global.json");
  const projectPath = path.join(dir, "project.json");
  if (global !== undefined) writeFileSync(globalPath, JSON.stringify(global));
  if (project !== undefined) writeFileSync(projectPath, JSON.stringify(project));
  const warnings: string[] = [];
  return { settings: loadSettings({ globalPath, projectPath, warn: (m) => warnings.push(m) }), warnings };
}

describe("permissions and sandbox settings", () => {
  it("default to off: mode allow, no rules, no sandbox", () => {
    const { settings } = load();
    expect(settings.permissions).toEqual({ mode: "allow", allow: [], ask: [], deny: [], timeoutMs: 0 });
    expect(settings.sandbox).toEqual({ mode: "off", network: false, writableRoots: [] });
    expect(toSessionSettings(settings).permissions).toEqual({ mode: "allow", allow: [], ask: [], deny: [] });
  });

  it("a project file adds rules to the global file's and may change the mode", () => {
    const { settings, warnings } = load(
      { permissions: { mode: "ask", deny: ["bash(rm -rf:*)"], allow: ["bash(npm test)"], timeoutMs: 5000 }, sandbox: { mode: "workspace-write" } },
      { permissions: { mode: "ask-writes", deny: ["read(.env)"] }, sandbox: { network: true, writableRoots: ["/opt/cache"] } },
    );
    expect(warnings).toEqual([]);
    expect(settings.permissions).toEqual({ mode: "ask-writes", allow: ["bash(npm test)"], ask: [], deny: ["bash(rm -rf:*)", "read(.env)"], timeoutMs: 5000 });
    expect(settings.sandbox).toEqual({ mode: "workspace-write", network: true, writableRoots: ["/opt/cache"] });
    expect(toSessionSettings(settings).permissions).toMatchObject({ mode: "ask-writes", timeoutMs: 5000 });
  });

  it("a bad rule, mode or root is a startup error naming it", () => {
    expect(() => load({ permissions: { deny: ["bash(ok)", "edit(src/**"] } })).toThrow(/permissions\.deny\[1\]: rule "edit\(src\/\*\*": missing "\)"/);
    expect(() => load({ permissions: { mode: "sometimes" } })).toThrow(/Invalid setting permissions\.mode in .*: expected one of "allow", "ask", "ask-writes", "read-only"/);
    expect(() => load(undefined, { sandbox: { writableRoots: ["relative/dir"] } })).toThrow(/sandbox\.writableRoots\[0\]: expected an absolute path/);
    expect(() => load({ sandbox: { network: "yes" } })).toThrow(/sandbox\.network in .*: expected true or false/);
  });

  it("--sandbox takes off, workspace-write or read-only", () => {
    expect(parseArgs(["--mode", "rpc", "--sandbox", "read-only"]).sandbox).toBe("read-only");
    expect(() => parseArgs(["--sandbox", "full"])).toThrow('Invalid value for --sandbox: "full" (expected one of off, workspace-write, read-only)');
  });
});
