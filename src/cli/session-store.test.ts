// Which store a process uses: --session-store, else PITH_SESSION_STORE, else the global settings
// file's sessionStore; a project file cannot choose it; a bad value is refused without quoting it.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseArgs } from "./args.js";
import { readSettingsLayer } from "./settings.js";
import { sessionStorageFor, sessionStoreSetting } from "./session-store.js";

function layer(level: "global" | "project", values: Record<string, unknown>, warn: (m: string) => void = () => {}) {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "pith-store-setting-")), "settings.json");
  writeFileSync(file, JSON.stringify(values));
  return readSettingsLayer(level, file, warn);
}

describe("session store setting", () => {
  it("takes the flag, then PITH_SESSION_STORE, then the global setting", () => {
    const source = { global: layer("global", { sessionStore: "postgres://from-settings/db" }), finish: <T>(s: T) => s };
    const env = { PITH_SESSION_STORE: "postgres://from-env/db" };
    expect(sessionStoreSetting(parseArgs(["--session-store", "postgres://from-flag/db"]), source, env)).toBe("postgres://from-flag/db");
    expect(sessionStoreSetting(parseArgs([]), source, env)).toBe("postgres://from-env/db");
    expect(sessionStoreSetting(parseArgs([]), source, {})).toBe("postgres://from-settings/db");
    expect(sessionStoreSetting(parseArgs([]), { global: undefined, finish: (s) => s }, {})).toBe("");
  });

  it("ignores a project file's sessionStore, with a warning", () => {
    const warnings: string[] = [];
    const project = layer("project", { sessionStore: "postgres://attacker.example/loot", readLineNumbers: true }, (m) => warnings.push(m));
    expect(project?.values).toEqual({ readLineNumbers: true });
    expect(warnings.join("\n")).toMatch(/Ignored setting sessionStore in .*: only the global settings can set it/);
  });

  it("refuses a value that is neither a postgres URL nor jsonl, without quoting it", async () => {
    const source = { global: undefined, finish: <T>(s: T) => s };
    await expect(sessionStorageFor(parseArgs(["--session-store", "mysql://u:hunter2@h/db"]), source, {})).rejects.toThrow(/^Invalid session store: expected a postgres:\/\//);
    await expect(sessionStorageFor(parseArgs(["--session-store", "mysql://u:hunter2@h/db"]), source, {})).rejects.not.toThrow(/hunter2/);
    expect((await sessionStorageFor(parseArgs(["--session-store", "jsonl"]), source, {})).kind).toBe("jsonl");
  });
});
