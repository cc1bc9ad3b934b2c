import { describe, expect, it } from "vitest";
import { BUILTIN_TOOL_NAMES, DEFAULT_RPC_TOOLS, UnknownToolError, createBuiltinTools, selectTools } from "./builtin-tools.js";
import { runTool } from "./run-tool.js";
import { makeCtx, makeTempDir, textOf } from "../../test/support/tools.js";
import type { Tool } from "./types.js";

describe("createBuiltinTools", () => {
  const tools = createBuiltinTools({ cwd: "/" });
  it("creates every built-in tool, described, with an object schema", () => {
    expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES]);
    for (const t of tools) {
      expect(t.source).toBe("builtin");
      expect(t.description.length).toBeGreaterThan(40);
      expect(t.parameters).toMatchObject({ type: "object" });
      expect(JSON.parse(JSON.stringify(t.parameters))).toEqual(t.parameters);
    }
  });
  it("marks bash, edit, write and todo_write exclusive; read and edit non-abortable", () => {
    const exclusive = tools.filter((t) => t.concurrency === "exclusive").map((t) => t.name);
    expect(exclusive.sort()).toEqual(["bash", "edit", "todo_write", "write"]);
    expect(tools.filter((t) => t.nonAbortable).map((t) => t.name).sort()).toEqual(["edit", "read"]);
  });
  it("uses the injected todo store", async () => {
    let saved: unknown;
    const todo = createBuiltinTools({ cwd: "/", todos: { get: () => [], set: (p) => (saved = p) } }).find((t) => t.name === "todo_write")!;
    await runTool(todo, { ops: [{ op: "add_phase", name: "P" }] }, makeCtx("/"));
    expect(saved).toEqual([{ id: "phase-1", name: "P", tasks: [] }]);
  });
  it("uses the injected fs ops", async () => {
    const tmp = makeTempDir();
    const calls: string[] = [];
    const base = (await import("./ops/fs-ops.js")).createNodeFsOps();
    const read = createBuiltinTools({ cwd: tmp.dir, fs: { ...base, stat: async (p) => (calls.push(p), base.stat(p)) } })[0];
    const out = await runTool(read, { path: "x" }, makeCtx(tmp.dir));
    expect(textOf(out.result)).toBe("File not found: x");
    expect(calls).toEqual([`${tmp.dir}/x`]);
    tmp.cleanup();
  });
});

describe("selectTools", () => {
  const tools = createBuiltinTools({ cwd: "/" });
  const extra: Tool = { ...tools[0], name: "host_thing", source: "host" };
  it("defaults to DEFAULT_RPC_TOOLS plus non-built-ins", () => {
    expect(selectTools([...tools, extra]).map((t) => t.name)).toEqual([...DEFAULT_RPC_TOOLS, "host_thing"]);
  });
  it("honours --tools and --no-tools", () => {
    expect(selectTools(tools, { allow: ["grep", " read", "grep"] }).map((t) => t.name)).toEqual(["grep", "read"]);
    expect(selectTools(tools, { none: true })).toEqual([]);
  });
  it("rejects unknown names, listing the valid ones", () => {
    expect(() => selectTools(tools, { allow: ["read", "python"] })).toThrow(UnknownToolError);
    expect(() => selectTools(tools, { allow: ["python"] })).toThrow("Unknown tool: python. Valid tools: bash, edit, find, grep, ls, read, todo_write, write");
  });
});
