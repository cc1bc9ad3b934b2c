import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PithError } from "../shared/errors.js";
import { applyRpcOverrides, defaultSettings, loadSettings, mergeSettings, toSessionSettings } from "./settings.js";

function files(global?: unknown, project?: unknown) {
  const dir = mkdtempSync(path.join(tmpdir(), "pith-settings-"));
  const globalPath = path.join(dir, "global.json");
  const projectPath = path.join(dir, "project.json");
  if (global !== undefined) writeFileSync(globalPath, typeof global === "string" ? global : JSON.stringify(global));
  if (project !== undefined) writeFileSync(projectPath, typeof project === "string" ? project : JSON.stringify(project));
  return { globalPath, projectPath };
}

describe("settings", () => {
  it("has the spec defaults", () => {
    const s = defaultSettings();
    expect(s).toMatchObject({
      steeringMode: "one-at-a-time",
      followUpMode: "one-at-a-time",
      interruptMode: "wait",
      compaction: { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000, autoContinue: true },
      retry: { enabled: true, maxRetries: 3, baseDelayMs: 2000, maxDelayMs: 60000, firstByteTimeoutMs: 60000, idleTimeoutMs: 120000 },
      todo: { enabled: true, reminders: true, remindersMax: 3, eager: false },
      tasks: { todoClearDelay: 60 },
    });
    expect(s.defaultProvider).toBeUndefined();
  });

  it("loads defaults when no file exists", () => {
    const warnings: string[] = [];
    expect(loadSettings({ ...files(), warn: (m) => warnings.push(m) })).toEqual(defaultSettings());
    expect(warnings).toEqual([]);
  });

  it("deep-merges project over global over defaults; arrays are replaced", () => {
    const paths = files(
      { defaultProvider: "openai", compaction: { enabled: false, reserveTokens: 1000 }, enabledModels: ["a", "b"] },
      { defaultModel: "gpt-5", compaction: { reserveTokens: 2000 }, enabledModels: ["c"] },
    );
    const s = loadSettings({ ...paths, warn: () => {} });
    expect(s.defaultProvider).toBe("openai");
    expect(s.defaultModel).toBe("gpt-5");
    expect(s.compaction).toMatchObject({ enabled: false, reserveTokens: 2000, keepRecentTokens: 20000 });
    expect(s.enabledModels).toEqual(["c"]);
  });

  it("warns about unknown keys (nested too) and ignores them", () => {
    const warnings: string[] = [];
    const paths = files({ colourScheme: "dark", retry: { enabled: false, jitter: true } });
    const s = loadSettings({ ...paths, warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([`Unknown setting colourScheme in ${paths.globalPath}`, `Unknown setting retry.jitter in ${paths.globalPath}`]);
    expect(s.retry.enabled).toBe(false);
    expect(s).not.toHaveProperty("colourScheme");
  });

  it("accepts pi's documented settings keys silently, so one settings file serves both", () => {
    const warnings: string[] = [];
    const pi = {
      theme: "dark",
      quietStartup: true,
      terminal: { showImages: false },
      retry: { maxAgentDelayMs: 30000, provider: { timeoutMs: 1000, maxRetries: 2, maxRetryDelayMs: 0 } },
      compaction: { modelOverrides: { "a/b": { reserveTokens: 1 } } },
      images: { autoResize: true, blockImages: false },
      skills: ["x"],
      enableSkillCommands: true,
      httpIdleTimeoutMs: 300000,
    };
    const s = loadSettings({ ...files(pi), warn: (m) => warnings.push(m) });
    expect(warnings).toEqual([]);
    expect(s).not.toHaveProperty("theme");
    expect(s.retry).not.toHaveProperty("provider");
  });

  it("rejects invalid values naming the key and the file", () => {
    const paths = files(undefined, { compaction: { reserveTokens: "big" } });
    expect(() => loadSettings({ ...paths, warn: () => {} })).toThrow(
      `Invalid setting compaction.reserveTokens in ${paths.projectPath}: expected a non-negative integer`,
    );
    const modes = files({ steeringMode: "sometimes" });
    expect(() => loadSettings({ ...modes, warn: () => {} })).toThrow(/Invalid setting steeringMode .*one of "all", "one-at-a-time"/);
    const shape = files({ retry: true });
    expect(() => loadSettings({ ...shape, warn: () => {} })).toThrow(/Invalid setting retry .*expected an object/);
    const env = files({ bash: { environment: { A: 1 } } });
    expect(() => loadSettings({ ...env, warn: () => {} })).toThrow(/bash\.environment/);
  });

  it("rejects broken JSON and non-object files with a config error", () => {
    const broken = files("{ nope");
    let caught: unknown;
    try {
      loadSettings({ ...broken, warn: () => {} });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(PithError);
    expect((caught as PithError).code).toBe("config");
    expect((caught as PithError).message).toContain(`Invalid JSON in settings file ${broken.globalPath}`);
    expect(() => loadSettings({ ...files([1]), warn: () => {} })).toThrow(/expected a JSON object/);
  });

  it("fileCheckpoints: off by default with the issue's limits; validated; passed to the session", () => {
    expect(defaultSettings().fileCheckpoints).toEqual({ enabled: false, maxFileBytes: 10 * 1024 * 1024, maxFiles: 50_000, retentionDays: 14 });
    const on = loadSettings({ ...files({ fileCheckpoints: { enabled: true, retentionDays: 3 } }), warn: () => {} });
    expect(toSessionSettings(on).fileCheckpoints).toEqual({ enabled: true, maxFileBytes: 10 * 1024 * 1024, maxFiles: 50_000, retentionDays: 3 });
    expect(() => loadSettings({ ...files({ fileCheckpoints: { maxFiles: 0 } }), warn: () => {} })).toThrow(/fileCheckpoints\.maxFiles .*a positive number/);
    expect(() => loadSettings({ ...files({ fileCheckpoints: { enabled: "yes" } }), warn: () => {} })).toThrow(/fileCheckpoints\.enabled/);
  });

  it("mergeSettings does not modify its inputs", () => {
    const base = defaultSettings();
    const merged = mergeSettings(base, { retry: { enabled: false } });
    expect(base.retry.enabled).toBe(true);
    expect(merged.retry).toEqual({ ...base.retry, enabled: false });
  });

  it("RPC overrides reset the todo workflow settings only", () => {
    const paths = files({ todo: { enabled: false, reminders: false, remindersMax: 9, eager: false, verbose: true }, tasks: { todoClearDelay: 5 }, steeringMode: "all" });
    const s = applyRpcOverrides(loadSettings({ ...paths, warn: () => {} }));
    expect(s.todo).toEqual({ enabled: true, reminders: true, remindersMax: 3, eager: false, verbose: true });
    expect(s.tasks.todoClearDelay).toBe(5);
    expect(s.steeringMode).toBe("all");
  });

  it("maps to the session's settings shape", () => {
    const s = mergeSettings(defaultSettings(), { shellPath: "/bin/zsh", tasks: { todoClearDelay: 7 }, bash: { environment: { A: "1" } } });
    const session = toSessionSettings(s);
    expect(session.todo.clearDelaySeconds).toBe(7);
    expect(session.bashEnvironment).toEqual({ A: "1" });
    expect(session.shellPath).toBe("/bin/zsh");
    expect(session.compaction).toEqual(s.compaction);
  });

  it("trustedFolders and defaultProjectTrust: global only (a project file's are dropped, saying so), validated", () => {
    const warnings: string[] = [];
    const paths = files({ trustedFolders: ["/work", "~/src"], defaultProjectTrust: "never" }, { trustedFolders: ["/"], defaultProjectTrust: "always" });
    const s = loadSettings({ ...paths, warn: (m) => warnings.push(m) });
    expect(s.trustedFolders).toEqual(["/work", "~/src"]);
    expect(s.defaultProjectTrust).toBe("never");
    expect(warnings).toEqual([
      `Ignored setting trustedFolders in ${paths.projectPath}: only the global settings can set it`,
      `Ignored setting defaultProjectTrust in ${paths.projectPath}: only the global settings can set it`,
    ]);
    expect(defaultSettings()).toMatchObject({ trustedFolders: [], defaultProjectTrust: "ask" });
    expect(() => loadSettings({ ...files({ trustedFolders: ["relative/dir"] }), warn: () => {} })).toThrow(/trustedFolders: "relative\/dir" is not an absolute path/);
    expect(() => loadSettings({ ...files({ defaultProjectTrust: "sometimes" }), warn: () => {} })).toThrow(/defaultProjectTrust/);
  });
});
