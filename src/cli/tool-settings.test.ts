import { describe, expect, it } from "vitest";
import { createBuiltinTools, createReferenceTools, REFERENCE_TOOL_NAMES } from "../tools/index.js";
import { defaultSettings, mergeSettings, validateSettings } from "./settings.js";
import { applyPythonMode, referenceToolsOptions } from "./tool-settings.js";

const names = (settings: Record<string, unknown>) => {
  const s = mergeSettings(defaultSettings(), validateSettings(settings, "s.json", () => {}));
  return applyPythonMode([...createBuiltinTools({ cwd: "/" }), ...createReferenceTools(referenceToolsOptions(s))], s).map((t) => t.name);
};

describe("the reference's tool settings", () => {
  it("offers every reference tool by default (inspect_image needs a vision port)", () => {
    const s = defaultSettings();
    expect(s.edit.mode).toBe("replace");
    const all = createReferenceTools({ ...referenceToolsOptions(s), vision: async () => ({ text: "", model: "m" }) }).map((t) => t.name);
    expect(all).toEqual([...REFERENCE_TOOL_NAMES]);
  });

  it("switches tools off by the reference's setting names", () => {
    const off = names({ astGrep: { enabled: false }, astEdit: { enabled: false }, notebook: { enabled: false }, calc: { enabled: false }, renderMermaid: { enabled: false } });
    for (const n of ["ast_grep", "ast_edit", "notebook", "calc", "render_mermaid"]) expect(off).not.toContain(n);
    expect(names({ python: { toolMode: "bash-only" } })).not.toContain("python");
    const ipy = names({ python: { toolMode: "ipy-only" } });
    expect(ipy).toContain("python");
    expect(ipy).not.toContain("bash");
  });

  it("rejects invalid values naming the key", () => {
    expect(() => validateSettings({ edit: { mode: "vim" } }, "s.json", () => {})).toThrow('Invalid setting edit.mode in s.json: expected one of "replace", "hashline"');
    expect(() => validateSettings({ python: { toolMode: "x" } }, "s.json", () => {})).toThrow(/python\.toolMode/);
    expect(() => validateSettings({ calc: { enabled: "yes" } }, "s.json", () => {})).toThrow(/calc\.enabled/);
  });
});
