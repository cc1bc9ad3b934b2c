// The `lsp` settings: defaults, the reference's names, and a bad server entry named in the error.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_DEFERRED_TOOLS, defaultSettings, loadSettings } from "./settings.js";

function load(value: unknown) {
  const dir = mkdtempSync(path.join(tmpdir(), "pith-lsp-settings-"));
  const file = path.join(dir, "settings.json");
  writeFileSync(file, JSON.stringify(value));
  const warnings: string[] = [];
  return { settings: loadSettings({ globalPath: file, warn: (m) => warnings.push(m) }), warnings };
}

describe("lsp settings", () => {
  it("default: off, diagnostics on write (once on), 3 s, the lsp tool behind call_tool", () => {
    expect(defaultSettings().lsp).toEqual({ enabled: false, diagnosticsOnWrite: true, diagnosticsOnEdit: false, formatOnWrite: false, diagnosticsTimeoutMs: 3000, servers: {} });
    expect(DEFAULT_DEFERRED_TOOLS).toContain("lsp");
  });

  it("takes the reference's keys and server shape, ignoring server fields pith has no use for", () => {
    const servers = { gopls: { args: ["serve"], settings: { gopls: { staticcheck: true } }, capabilities: { flycheck: true } } };
    const { settings, warnings } = load({ lsp: { enabled: true, diagnosticsOnEdit: true, diagnosticsTimeoutMs: 5000, servers } });
    expect(settings.lsp).toMatchObject({ enabled: true, diagnosticsOnWrite: true, diagnosticsOnEdit: true, diagnosticsTimeoutMs: 5000, servers });
    expect(warnings).toEqual([]);
  });

  it("refuses a bad value, naming the key", () => {
    expect(() => load({ lsp: { diagnosticsTimeoutMs: 0 } })).toThrow(/lsp\.diagnosticsTimeoutMs .*a positive integer/);
    expect(() => load({ lsp: { servers: { x: { command: "x", fileTypes: [] } } } })).toThrow(/lsp\.servers\.x\.fileTypes: expected a non-empty array of strings/);
    expect(() => load({ lsp: { servers: { x: "typescript" } } })).toThrow(/lsp\.servers\.x: expected an object/);
  });
});
