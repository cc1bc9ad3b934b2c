// The type-level contract: an extension written against pi 0.87.1's published types compiles
// against pith's extension API (pi's package name mapped to src/extensions/index.ts), and against
// pi's own declarations too, so the fixture really is a pi extension.
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const TSC = path.resolve(HERE, "../../node_modules/typescript/bin/tsc");

function compile(project: string): string {
  try {
    execFileSync(process.execPath, [TSC, "-p", path.join(HERE, project)], { encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return `${e.stdout ?? ""}${e.stderr ?? ""}` || String(err);
  }
}

describe("pi 0.87.1's extension types", () => {
  it("the fixture is a valid pi extension (pi's own declarations)", () => {
    expect(compile("tsconfig.pi.json")).toBe("");
  }, 120_000);

  it("compiles against pith's extension API with no errors", () => {
    expect(compile("tsconfig.pith.json")).toBe("");
  }, 120_000);
});
