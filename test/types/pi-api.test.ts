// The type-level contract: an extension written against pi 0.87.1's published types compiles
// against pith's extension API, and against pi's own declarations too, so the fixture really is
// a pi extension.
//
// One TypeScript program holds the fixture twice: as written (pi's package name resolves to
// pi's declarations in node_modules) and as a virtual copy whose import names pith's extension
// API instead. Only those two files are checked: pith's own sources are the typecheck's
// business, and checking them here again is what made two `tsc -p` runs take minutes.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const FIXTURE = path.join(HERE, "pi-extension.fixture.ts");
const PITH_COPY = path.join(HERE, "pi-extension.pith.virtual.ts");
const PI_PACKAGE = "@earendil-works/pi-coding-agent";
const PITH_API = path.resolve(HERE, "../../src/extensions/index.js");

const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  strict: true,
  noEmit: true,
  skipLibCheck: true,
  types: ["node"],
};

/** The fixture's text with pi's package name replaced by pith's extension API. */
function pithVariant(text: string): string {
  const replaced = text.split(`"${PI_PACKAGE}"`).join(JSON.stringify(PITH_API));
  if (replaced === text) throw new Error(`the fixture does not import ${PI_PACKAGE}`);
  return replaced;
}

/** A file that uses a member pith does not offer: proves the check can fail. */
const BROKEN = path.join(HERE, "broken.virtual.ts");
const BROKEN_TEXT = `import type { ExtensionAPI } from ${JSON.stringify(PITH_API)};\nexport default (pi: ExtensionAPI) => pi.noSuchMember();\n`;

/** The diagnostics of each checked file, as text; "" when there are none. */
function check(): { pi: string; pith: string; broken: string } {
  const virtual = new Map([
    [PITH_COPY, pithVariant(readFileSync(FIXTURE, "utf8"))],
    [BROKEN, BROKEN_TEXT],
  ]);
  const host = ts.createCompilerHost(OPTIONS);
  const getSourceFile = host.getSourceFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const readFile = host.readFile.bind(host);
  const own = (name: string) => virtual.get(path.resolve(name));
  host.getSourceFile = (name, version, onError, create) => {
    const text = own(name);
    return text === undefined ? getSourceFile(name, version, onError, create) : ts.createSourceFile(name, text, version);
  };
  host.fileExists = (name) => own(name) !== undefined || fileExists(name);
  host.readFile = (name) => own(name) ?? readFile(name);
  const program = ts.createProgram({ rootNames: [FIXTURE, ...virtual.keys()], options: OPTIONS, host });
  const text = (file: string) => {
    const source = program.getSourceFile(file);
    if (!source) return `${file}: not in the program`;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    return diagnostics.map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")).join("\n");
  };
  return { pi: text(FIXTURE), pith: text(PITH_COPY), broken: text(BROKEN) };
}

describe("pi 0.87.1's extension types", () => {
  let result: ReturnType<typeof check> | undefined;
  const checked = () => (result ??= check());

  it("the fixture is a valid pi extension (pi's own declarations)", () => {
    expect(checked().pi).toBe("");
  }, 300_000);

  it("compiles against pith's extension API with no errors", () => {
    expect(checked().pith).toBe("");
  }, 300_000);

  it("reports a member pith does not offer (the check can fail)", () => {
    expect(checked().broken).toBe("Property 'noSuchMember' does not exist on type 'ExtensionAPI'.");
  }, 300_000);
});
