import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandVars } from "./expand-vars.js";

describe("expandVars", () => {
  const env = { HOME: "/home/u", TOKEN: "s3cret", EMPTY: "" };

  it("expands ${VAR} and ${VAR:-default}", () => {
    expect(expandVars("${HOME}/bin", env)).toEqual({ ok: true, value: "/home/u/bin" });
    expect(expandVars("Bearer ${TOKEN}", env)).toEqual({ ok: true, value: "Bearer s3cret" });
    expect(expandVars("${NOPE:-https://api.example.com}/mcp", env)).toEqual({ ok: true, value: "https://api.example.com/mcp" });
    expect(expandVars("${TOKEN:-x}", env)).toEqual({ ok: true, value: "s3cret" });
    expect(expandVars("${EMPTY:-fallback}", env)).toEqual({ ok: true, value: "fallback" });
    expect(expandVars("${EMPTY}", env)).toEqual({ ok: true, value: "" });
    expect(expandVars("${NOPE:-}", env)).toEqual({ ok: true, value: "" });
  });

  it("reports unset variables without a default, each once", () => {
    expect(expandVars("${A}-${B}-${A}", env)).toEqual({ ok: false, missing: ["A", "B"] });
  });

  it("leaves $VAR, malformed references and plain text alone", () => {
    for (const s of ["$HOME", "${}", "${1X}", "${HOME", "price: $5", "{HOME}"]) {
      expect(expandVars(s, env)).toEqual({ ok: true, value: s });
    }
  });

  it("never changes text without a reference, and substitutes exactly the value", () => {
    fc.assert(
      fc.property(fc.string().filter((s) => !s.includes("${")), (s) => {
        expect(expandVars(s, env)).toEqual({ ok: true, value: s });
      }),
    );
    fc.assert(
      fc.property(fc.string().filter((s) => !s.includes("$")), fc.string().filter((s) => !s.includes("$")), fc.string(), (a, b, v) => {
        expect(expandVars(`${a}\${X}${b}`, { X: v })).toEqual({ ok: true, value: a + v + b });
      }),
    );
  });
});
