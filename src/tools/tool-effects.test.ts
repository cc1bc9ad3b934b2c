// Every tool pith builds declares its effect where it is defined; this table is what they
// declare. A new tool (or a changed effect) fails here until the table says what it does.
import { describe, expect, it } from "vitest";
import { TOOL_EFFECTS, type ToolEffect } from "../shared/tool-effect.js";
import { createBuiltinTools } from "./builtin-tools.js";
import { createReferenceTools } from "./reference-tools.js";
import { createSubmitResultTool } from "./submit-result/index.js";
import { BUILTIN_AGENTS, createTaskTool, type SubagentFactory } from "./task/index.js";
import type { Tool } from "./types.js";

const EXPECTED: Record<string, ToolEffect> = {
  read: "read-only",
  grep: "read-only",
  find: "read-only",
  ls: "read-only",
  ast_grep: "read-only",
  calc: "read-only",
  render_mermaid: "read-only",
  inspect_image: "read-only",
  display_image: "read-only",
  edit: "writes-files",
  "edit (hashline)": "writes-files",
  write: "writes-files",
  ast_edit: "writes-files",
  notebook: "writes-files",
  bash: "runs-commands",
  python: "runs-commands",
  todo_write: "session",
  submit_result: "session",
  task: "delegates",
};

/** Every tool the composition root can build, under a unique label. */
function everyTool(): Map<string, Tool> {
  const factory: SubagentFactory = {
    depth: 0,
    maxConcurrency: 1,
    maxRecursionDepth: 1,
    agents: () => [...BUILTIN_AGENTS],
    create: () => Promise.reject(new Error("not in this test")),
  };
  const vision = async () => ({ text: "", model: "none" });
  const tools = new Map<string, Tool>();
  for (const t of [...createBuiltinTools({ cwd: "/" }), ...createReferenceTools({ vision }), createTaskTool(factory), createSubmitResultTool({ schema: {}, check: () => [] }, () => {})]) {
    tools.set(t.name, t);
  }
  tools.set("edit (hashline)", createBuiltinTools({ cwd: "/", editMode: "hashline" }).find((t) => t.name === "edit")!);
  return tools;
}

describe("tool effects", () => {
  const tools = everyTool();

  it("every tool declares an effect, and the table lists every tool", () => {
    for (const [name, tool] of tools) expect(TOOL_EFFECTS, name).toContain(tool.effect);
    expect(Object.fromEntries([...tools].map(([name, t]) => [name, t.effect]))).toEqual(EXPECTED);
  });

  it("every tool that writes files declares the paths it writes", () => {
    for (const [name, tool] of tools) {
      if (tool.effect === "writes-files") expect(tool.paths, name).toBeTypeOf("function");
    }
  });

  it("path declarations follow the tools' own defaults and never throw on bad arguments", () => {
    const paths = (name: string, args: Record<string, unknown>) => tools.get(name)!.paths!(args);
    expect(paths("grep", {})).toEqual([{ path: ".", scope: "tree" }]);
    expect(paths("grep", { path: "/" })).toEqual([{ path: ".", scope: "tree" }]);
    expect(paths("ls", {})).toEqual([{ path: ".", scope: "tree" }]);
    expect(paths("ls", { path: "/" })).toEqual([{ path: "/", scope: "tree" }]);
    expect(paths("ast_edit", { path: "src/**/*.ts" })).toEqual([{ path: "src", scope: "tree" }]);
    expect(paths("ast_edit", {})).toEqual([{ path: ".", scope: "tree" }]);
    expect(paths("notebook", { notebook_path: "a.ipynb" })).toEqual([{ path: "a.ipynb", scope: "file" }]);
    expect(paths("edit (hashline)", { edits: [{ path: "a", move: "b" }, { path: "c" }] })).toEqual([
      { path: "a", scope: "file" },
      { path: "b", scope: "file" },
      { path: "c", scope: "file" },
    ]);
    for (const [name, tool] of tools) {
      for (const bad of [{}, { path: 3 }, { edits: "x" }, { edits: [null, 3] }, { notebook_path: [] }]) {
        expect(() => tool.paths?.(bad), name).not.toThrow();
      }
    }
  });
});
