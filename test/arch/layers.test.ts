import { describe, expect, it } from "vitest";
import {
  SRC_DIR,
  doorViolations,
  fileCycles,
  fileEdges,
  folderCycles,
  importEdges,
  importSpecifiers,
  layerViolations,
  readSources,
  type SourceFile,
} from "./import-graph.js";

describe("layering (the layer table of docs/architecture.md)", () => {
  const files = readSources(SRC_DIR);
  const edges = importEdges(files);

  it("finds the source files", () => {
    expect(files.length).toBeGreaterThan(5);
    expect(files.some((f) => f.path === "shared/types.ts")).toBe(true);
  });

  it("has no import that breaks the layer table", () => {
    const problems = layerViolations(edges);
    expect(problems, `Layer violations:\n${problems.join("\n")}`).toEqual([]);
  });

  it("has no cycle between folders", () => {
    const cycles = folderCycles(edges);
    expect(cycles, `Folder cycles:\n${cycles.join("\n")}`).toEqual([]);
  });

  const fileGraph = fileEdges(files);

  it("has no two files that import each other, directly or through a loop", () => {
    const cycles = fileCycles(fileGraph);
    expect(cycles, `File cycles:\n${cycles.join("\n")}`).toEqual([]);
  });

  it("reaches src/session/ only through its index.ts from outside", () => {
    const problems = doorViolations(fileGraph, ["session"]);
    expect(problems, `Imports past the session's door:\n${problems.join("\n")}`).toEqual([]);
  });

  it("hands a session's wiring only to the composition root (src/cli): front doors use the facade", () => {
    const holders = files
      .filter((f) => !f.path.startsWith("session/") && !f.path.startsWith("cli/") && !f.path.endsWith(".test.ts"))
      .filter((f) => /\bsessionWiring\b|\bSessionWiring\b/.test(f.text))
      .map((f) => f.path);
    expect(holders, "Only src/cli/ may take a session's wiring").toEqual([]);
  });
});

describe("the checker itself", () => {
  const fake = (path: string, text: string): SourceFile => ({ path, text });

  it("sees static, type-only, re-export and dynamic imports", () => {
    const text = [
      'import { a } from "./a.js";',
      'import type { B } from "../shared/b.js";',
      'export * from "./c.js";',
      'export { d } from "../tools/d.js";',
      'const m = await import("../agent/e.js");',
      'import "node:fs";',
    ].join("\n");
    expect(importSpecifiers(text)).toEqual(["./a.js", "../shared/b.js", "./c.js", "../tools/d.js", "../agent/e.js", "node:fs"]);
  });

  it("flags an upward import, a dynamic one, and an unknown folder", () => {
    const edges = importEdges([
      fake("shared/types.ts", 'import { x } from "../agent/loop.js";'),
      fake("tools/read/index.ts", 'const s = await import("../../session/store.js");'),
      fake("client/index.ts", 'import type { RpcCommand } from "../protocol/commands.js";'),
      fake("rpc/dispatch.ts", 'import { runLoop } from "../agent/loop.js";'),
      fake("misc/x.ts", 'import { y } from "../shared/y.js";'),
      fake("agent/loop.ts", 'import { z } from "./z.js"; import ai from "ai";'),
    ]);
    const problems = layerViolations(edges);
    expect(problems).toHaveLength(4);
    expect(problems[0]).toBe('src/shared/types.ts imports "../agent/loop.js": shared → agent is not allowed (shared may import nothing)');
    expect(problems[1]).toMatch(/^src\/tools\/read\/index\.ts imports "..\/..\/session\/store.js": tools → session is not allowed/);
    expect(problems[2]).toMatch(/^src\/rpc\/dispatch\.ts .* rpc → agent is not allowed/);
    expect(problems[3]).toMatch(/folder "misc" is not in the layer table/);
  });

  it("flags production code that imports a test helper from outside src/", () => {
    const edges = importEdges([
      fake("session/agent-session.ts", 'import { fakeSession } from "../../test/support/session.js";'),
      fake("store/session-store.ts", 'import { x } from "../shared/x.js";'),
    ]);
    expect(layerViolations(edges)).toEqual([
      'src/session/agent-session.ts imports "../../test/support/session.js": production code may not import from outside src/ (test helpers live in test/support/)',
    ]);
  });

  it("reports a cycle between two folders with the offending imports", () => {
    const edges = importEdges([
      fake("tools/a.ts", 'import { b } from "../agent/b.js";'),
      fake("agent/b.ts", 'import { a } from "../tools/a.js";'),
      fake("agent/c.ts", 'import { s } from "../shared/s.js";'),
    ]);
    expect(folderCycles(edges)).toEqual([
      'agent → tools → agent (src/agent/b.ts imports ../tools/a.js; src/tools/a.ts imports ../agent/b.js)',
    ]);
  });

  it("resolves file imports and finds file cycles, direct and through a loop, type-only ones too", () => {
    const edges = fileEdges([
      fake("session/a.ts", 'import { b } from "./b.js";'),
      fake("session/b.ts", 'import type { A } from "./a.js";'),
      fake("tools/x.ts", 'import "./y.js";'),
      fake("tools/y.ts", 'import "./z/index.js";'),
      fake("tools/z/index.ts", 'export * from "../x.js";'),
      fake("agent/ok.ts", 'import "../tools/x.js"; import "./missing.js";'),
    ]);
    expect(edges.map((e) => `${e.from}>${e.to}`)).toContain("tools/y.ts>tools/z/index.ts");
    expect(fileCycles(edges)).toEqual(["src/session/a.ts ↔ src/session/b.ts", "src/tools/x.ts ↔ src/tools/y.ts ↔ src/tools/z/index.ts"]);
  });

  it("flags an import of a private session file from outside, not from inside or of the index", () => {
    const edges = fileEdges([
      fake("session/index.ts", 'export * from "./agent-session.js";'),
      fake("session/agent-session.ts", 'import "./store/session-store.js";'),
      fake("session/store/session-store.ts", ""),
      fake("rpc/server.ts", 'import type { AgentSession } from "../session/index.js"; import { x } from "../session/store/session-store.js";'),
      fake("cli/compose.ts", 'import "../session/index.js";'),
    ]);
    expect(doorViolations(edges, ["session"])).toEqual([
      'src/rpc/server.ts imports "../session/store/session-store.js": only src/session/index.ts may be imported from outside src/session/',
    ]);
  });

  it("finds longer cycles too", () => {
    const edges = importEdges([
      fake("a/x.ts", 'import "../b/x.js";'),
      fake("b/x.ts", 'import "../c/x.js";'),
      fake("c/x.ts", 'import "../a/x.js";'),
    ]);
    expect(folderCycles(edges).map((c) => c.split(" (")[0])).toEqual(["a → b → c → a"]);
  });
});
