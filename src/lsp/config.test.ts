// Which server a file gets and where its workspace root is; settings over the built-in table;
// a position from a line and a symbol on it.
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { positionOf } from "./call-context.js";
import { handles, planServers, rootFor, usableServerFor } from "./config.js";

function folder(): string {
  return mkdtempSync(path.join(tmpdir(), "pith-lsp-config-"));
}

describe("planServers", () => {
  it("merges settings field by field over the built-in table and finds commands on PATH only", () => {
    const bin = folder();
    const tsls = path.join(bin, "typescript-language-server");
    writeFileSync(tsls, "#!/bin/sh\n");
    chmodSync(tsls, 0o755);
    const cwd = folder();
    // a project's own node_modules/.bin never chooses what runs
    mkdirSync(path.join(cwd, "node_modules", ".bin"), { recursive: true });
    writeFileSync(path.join(cwd, "node_modules", ".bin", "pyright-langserver"), "#!/bin/sh\n");
    const plans = planServers({ servers: { "typescript-language-server": { args: ["--stdio", "--log-level", "4"] }, mine: { command: tsls, fileTypes: [".ts"], language: "mine" } } }, bin, cwd);
    expect(plans[0]).toMatchObject({ name: "mine", language: "mine", resolved: tsls });
    const ts = plans.find((p) => p.name === "typescript-language-server")!;
    expect(ts).toMatchObject({ resolved: tsls, language: "typescript" });
    expect(ts.config.args).toEqual(["--stdio", "--log-level", "4"]);
    expect(ts.config.fileTypes).toContain(".tsx");
    expect(plans.find((p) => p.name === "pyright")!.unusable).toEqual({ status: "unavailable", reason: "pyright-langserver is not on PATH" });
    // a server only settings name wins a file type over a built-in one
    expect(usableServerFor(plans, path.join(cwd, "a.ts"))?.name).toBe("mine");
    expect(usableServerFor(plans, path.join(cwd, "a.py"))).toBeUndefined();
  });

  it("matches file types by extension (any case) or by exact file name", () => {
    const [plan] = planServers({ servers: { d: { command: "/bin/sh", fileTypes: [".TS", "Dockerfile"] } } }, "", "/");
    expect(handles(plan, "/x/a.ts")).toBe(true);
    expect(handles(plan, "/x/Dockerfile")).toBe(true);
    expect(handles(plan, "/x/a.tsx")).toBe(false);
  });
});

describe("rootFor", () => {
  it("takes the nearest folder with a marker, never above the cwd, else the cwd", () => {
    const cwd = folder();
    mkdirSync(path.join(cwd, "packages", "a", "src"), { recursive: true });
    writeFileSync(path.join(cwd, "packages", "a", "package.json"), "{}");
    expect(rootFor(path.join(cwd, "packages", "a", "src", "x.ts"), ["package.json"], cwd)).toBe(path.join(cwd, "packages", "a"));
    expect(rootFor(path.join(cwd, "packages", "b.ts"), ["package.json"], cwd)).toBe(cwd);
    const inner = path.join(cwd, "packages");
    expect(rootFor(path.join(inner, "b.ts"), ["package.json"], inner)).toBe(inner);
  });

  it("outside the cwd, looks up to the file system root, else takes the file's folder", () => {
    const cwd = folder();
    const other = folder();
    expect(rootFor(path.join(other, "x.ts"), ["no-such-marker-here"], cwd)).toBe(other);
  });
});

describe("positionOf", () => {
  const text = "const a = b + b;\n  let c = a;\n";
  it("points at the symbol's occurrence on a 1-based line, or at the line's first non-blank", () => {
    expect(positionOf(text, 1, "b")).toEqual({ line: 0, character: 10 });
    expect(positionOf(text, 1, "b", 2)).toEqual({ line: 0, character: 14 });
    expect(positionOf(text, 2)).toEqual({ line: 1, character: 2 });
  });

  it("says what is wrong instead of guessing", () => {
    expect(() => positionOf(text, 1, "zz")).toThrow('"zz" is not on line 1: const a = b + b;');
    expect(() => positionOf(text, 1, "b", 3)).toThrow('line 1 has 2 occurrence(s) of "b", not 3');
    expect(() => positionOf(text, 9)).toThrow("line 9 is past the end of the file");
    expect(() => positionOf(text, 0)).toThrow("line must be a whole number from 1 (got 0)");
  });
});
