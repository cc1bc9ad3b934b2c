// Matching command-line options to the flags extensions declare (pi's registerFlag value rule).
import { describe, expect, it } from "vitest";
import { createLoadedExtension } from "./api.js";
import { resolveCliFlags } from "./flags.js";
import type { FlagOptions } from "./types.js";

function declaring(path: string, flags: Record<string, FlagOptions>) {
  const ext = createLoadedExtension(path);
  for (const [name, options] of Object.entries(flags)) ext.flags.set(name, { ...options, name, extensionPath: path });
  return ext;
}

describe("resolveCliFlags", () => {
  const exts = [declaring("/a.ts", { plan: { type: "boolean" }, persona: { type: "string" } }), declaring("/b.ts", { plan: { type: "string" } })];

  it("a boolean is true when named and takes =true/=false; a string takes its value; the first declaration owns a name", () => {
    const r = resolveCliFlags(exts, [{ name: "plan" }, { name: "persona", value: "pirate", separate: true }]);
    expect([...r.values]).toEqual([
      ["plan", true],
      ["persona", "pirate"],
    ]);
    expect(resolveCliFlags(exts, [{ name: "plan", value: "false" }]).values.get("plan")).toBe(false);
    expect(r).toMatchObject({ unknown: [], givenBack: [], errors: [] });
  });

  it("a boolean followed by an argument gives it back; bad values and unknown names are reported", () => {
    const r = resolveCliFlags(exts, [{ name: "plan", value: "hello", separate: true }, { name: "persona" }, { name: "nope" }, { name: "plan", value: "maybe" }]);
    expect(r.givenBack).toEqual([{ name: "plan", value: "hello", separate: true }]);
    expect(r.unknown).toEqual([{ name: "nope" }]);
    expect(r.errors).toEqual(['Extension flag "--persona" requires a value', 'Extension flag "--plan" is a switch: use --plan or --plan=false']);
  });
});
