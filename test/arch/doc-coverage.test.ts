// The reference docs keep up with the code: every command, every frame pith writes, every CLI
// flag, every settings key and every environment variable pith reads is documented, and the
// README stays a short door into docs/ whose test command is the one CI runs.
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  COMMAND_TYPES,
  EXTENSION_UI_REQUEST_SCHEMAS,
  InboundFrameSchema,
  OutboundFrameSchema,
  RpcSessionStateSchema,
} from "../../src/protocol/index.js";
import { parseArgs } from "../../src/cli/args.js";
import { defaultSettings } from "../../src/cli/settings.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");
const README_MAX_LINES = 250;

/** `type` literals of a union of object schemas (TypeBox literals carry `const`). */
export function frameTypes(union: unknown): string[] {
  const out = new Set<string>();
  const walk = (schema: unknown): void => {
    if (typeof schema !== "object" || schema === null) return;
    const s = schema as { anyOf?: unknown[]; properties?: { type?: { const?: unknown } } };
    if (Array.isArray(s.anyOf)) s.anyOf.forEach(walk);
    const type = s.properties?.type?.const;
    if (typeof type === "string") out.add(type);
  };
  walk(union);
  return [...out];
}

/** The flags and short aliases the argument parser's tables hold (`"--name": …` keys). */
export function flagNames(parserSource: string): string[] {
  return [...parserSource.matchAll(/^\s*"(--?[a-z][a-z-]*)":/gm)].map((m) => m[1]);
}

/** `PITH_*` and `PI_*` variables a source text reads from an environment object. */
export function envVarsRead(source: string): string[] {
  const out = new Set<string>();
  for (const m of source.matchAll(/\benv\??(?:\.|\[["'`])(PI(?:TH)?_[A-Z0-9_]+)/g)) out.add(m[1]);
  return [...out];
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(full));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(full);
  }
  return out;
}

/**
 * Names `text` does not document: with `jsonKey`, those no JSON example shows as `"jsonKey":"name"`;
 * without, those no code span names (`` `name` ``, `` `name <value>` ``; not `` `name.sub` ``).
 */
export function undocumented(names: readonly string[], text: string, jsonKey?: string): string[] {
  return names.filter((name) => {
    const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    if (jsonKey) return !new RegExp(`"${jsonKey}"\\s*:\\s*"${escaped}"`).test(text);
    return !new RegExp("`[^`\\n]*(?<![\\w.-])" + escaped + "(?![\\w.-])[^`\\n]*`").test(text);
  });
}

/** Settings keys as dotted paths: every top-level key and the keys of every object default. */
export function settingsKeys(defaults: Record<string, unknown>): string[] {
  const keys: string[] = [];
  for (const [key, value] of Object.entries(defaults)) {
    keys.push(key);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) {
      for (const sub of Object.keys(value)) keys.push(`${key}.${sub}`);
    }
  }
  return keys;
}

const missing = (what: string, file: string, names: string[]): string =>
  `${file} does not document ${names.length} ${what}: ${names.join(", ")}`;

describe("docs cover the code", () => {
  it("every command type has an example in docs/protocol.md", () => {
    const gaps = undocumented(COMMAND_TYPES, read("docs/protocol.md"), "type");
    expect(gaps, missing("command(s)", "docs/protocol.md", gaps)).toEqual([]);
  });

  it("every frame pith writes or reads besides commands has an example in docs/protocol.md", () => {
    const types = [...frameTypes(OutboundFrameSchema), ...frameTypes(InboundFrameSchema)].filter(
      (t) => !(COMMAND_TYPES as readonly string[]).includes(t),
    );
    expect(types).toEqual(expect.arrayContaining(["ready", "response", "agent_end", "host_tool_call", "host_tool_result"]));
    const gaps = undocumented(types, read("docs/protocol.md"), "type");
    expect(gaps, missing("frame type(s)", "docs/protocol.md", gaps)).toEqual([]);
  });

  it("every extension dialog method has an example in docs/protocol.md", () => {
    const methods = frameTypesOfMethod();
    const gaps = undocumented(methods, read("docs/protocol.md"), "method");
    expect(gaps, missing("extension_ui_request method(s)", "docs/protocol.md", gaps)).toEqual([]);
  });

  it("every get_state field is in docs/protocol.md", () => {
    const text = read("docs/protocol.md");
    const fields = Object.keys(RpcSessionStateSchema.properties);
    expect(fields).toEqual(expect.arrayContaining(["isStreaming", "sessionFile"]));
    const gaps = fields.filter((f) => !text.includes(`"${f}"`) && undocumented([f], text).length > 0);
    expect(gaps, missing("get_state field(s)", "docs/protocol.md", gaps)).toEqual([]);
  });

  it("every command-line flag is in docs/cli.md", () => {
    const flags = flagNames(read("src/cli/args.ts"));
    expect(flags).toEqual(expect.arrayContaining(["--mode", "--print", "-p", "--no-approve", "-na"]));
    // each one is really accepted (a value follows those that take one)
    for (const flag of flags) expect(() => parseArgs([flag, "rpc"]), flag).not.toThrow(/Unknown/i);
    const gaps = undocumented(flags, read("docs/cli.md"));
    expect(gaps, missing("flag(s)", "docs/cli.md", gaps)).toEqual([]);
  });

  it("every settings key of the defaults is in docs/configuration.md", () => {
    const keys = settingsKeys(defaultSettings() as unknown as Record<string, unknown>);
    const gaps = undocumented(keys, read("docs/configuration.md"));
    expect(gaps, missing("settings key(s)", "docs/configuration.md", gaps)).toEqual([]);
  });

  it("every PITH_* and PI_* environment variable read in src/ is in docs/configuration.md", () => {
    const vars = new Set<string>();
    const where = new Map<string, string>();
    for (const file of sourceFiles(join(ROOT, "src"))) {
      for (const name of envVarsRead(readFileSync(file, "utf8"))) {
        vars.add(name);
        if (!where.has(name)) where.set(name, relative(ROOT, file));
      }
    }
    expect([...vars]).toEqual(expect.arrayContaining(["PITH_HOME"]));
    const gaps = undocumented([...vars].sort(), read("docs/configuration.md")).map((v) => `${v} (read in ${where.get(v)})`);
    expect(gaps, missing("environment variable(s)", "docs/configuration.md", gaps)).toEqual([]);
  });
});

describe("README is the door", () => {
  const readme = read("README.md");

  it(`has at most ${README_MAX_LINES} lines`, () => {
    const lines = readme.replace(/\n$/, "").split("\n").length;
    expect(lines, `README.md has ${lines} lines; move detail into docs/ (at most ${README_MAX_LINES})`).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it("gives the test command that CI runs", () => {
    const ciCommand = read(".ci/run").trim().split("\n").at(-1) ?? "";
    expect(ciCommand).toBe("npm install && npm test");
    expect(readme, `README.md must show .ci/run's command: ${ciCommand}`).toContain("```sh\n" + ciCommand + "\n```");
  });

  it("links every topic file of docs/", () => {
    const docs = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md"));
    const gaps = docs.filter((f) => !readme.includes(`(docs/${f}`));
    expect(gaps, `README.md's "where to read next" does not link: ${gaps.join(", ")}`).toEqual([]);
  });
});

describe("the coverage checks", () => {
  it("report what a text leaves out, not what it shows", () => {
    const text = 'Use `--mode rpc`.\n```json\n{"type":"get_state"}\n```\nNot `get_tree`, {"type": "abortx"}.';
    expect(undocumented(["get_state", "get_tree", "abort"], text, "type")).toEqual(["get_tree", "abort"]);
    expect(undocumented(["--mode", "-p", "--model"], text)).toEqual(["-p", "--model"]);
    expect(undocumented(["retry", "retry.enabled"], "`retry.enabled`")).toEqual(["retry"]);
  });

  it("find the variables a source reads and the types of a union", () => {
    expect(envVarsRead('e.env.PITH_HOME; env?.PI_EDIT_VARIANT; env["PITH_X"]; const PITH_VERSION = 1; env.PATH')).toEqual([
      "PITH_HOME",
      "PI_EDIT_VARIANT",
      "PITH_X",
    ]);
    expect(frameTypes({ anyOf: [{ properties: { type: { const: "a" } } }, { anyOf: [{ properties: { type: { const: "b" } } }] }] })).toEqual(["a", "b"]);
    expect(settingsKeys({ a: 1, b: { c: 2 }, d: [1] })).toEqual(["a", "b", "b.c", "d"]);
  });
});

function frameTypesOfMethod(): string[] {
  return EXTENSION_UI_REQUEST_SCHEMAS.map((s) => (s.properties.method as { const: string }).const);
}
